/* SPDX-License-Identifier: BSD-2-Clause */
/* What the host offers `tickprobe qemu`: whether /dev/kvm is worth using,
 * and the clock its waits are timed on (qemu.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "tools/qemu/qemu.h"

/* /dev/kvm may exist and still be useless: kvm-pvm (a paravirtual nested
 * KVM) runs guests far slower than TCG, traps rdtsc, and OVMF dies on it. */
const char *qemu_kvm_problem(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	int version;
	if (fd < 0)
		return errno == ENOENT ? "/dev/kvm does not exist" : "/dev/kvm cannot be opened read-write";
	version = ioctl(fd, 0xAE00 /* KVM_GET_API_VERSION */, 0);
	close(fd);
	if (version != 12)
		return "/dev/kvm answers with an unknown API version";
	if (access("/sys/module/kvm_pvm", F_OK) == 0)
		return "/dev/kvm here is kvm-pvm, a paravirtual nested KVM: guests run 100-1000x slower than "
		       "under TCG, rdtsc traps (about 3 us a read) and OVMF dies on an emulation failure, so its "
		       "timings mean nothing; use --tcg";
	return NULL;
}

double qemu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
