/* SPDX-License-Identifier: BSD-2-Clause */
/* The network console on the UEFI path (see efi_net.h): the boot's network
 * facts, the choice of transport and the hello, the console's write. */
#include <efi.h>
#include <efilib.h>
#include "boot/efi_net.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define CALIBRATE_US 20000 /* 20 ms: the TSC rate to 1 part in a few thousand, enough for a bound */
#define FALLBACK_TSC_HZ 5000000000ull /* no rate measured: assume 5 GHz, so a bound is never short */

uint64_t efi_net_enter(void)
{
	uint64_t flags = read_flags();
	/* Interrupts on inside: the firmware's TCP timers and its network
	 * polling run from the timer tick. */
	__asm__ volatile("sti");
	return flags;
}

uint64_t efi_net_deadline(const struct efi_net *n)
{
	return rdtsc() + EFI_NET_WAIT_S * (n->tsc_hz ? n->tsc_hz : FALLBACK_TSC_HZ);
}

/* The MAC from the device path's MAC node, "52-54-00-12-34-56". */
static void find_mac(struct efi_net *n)
{
	EFI_DEVICE_PATH *dp = n->device_path;

	tp_snprintf(n->machine, sizeof n->machine, "00-00-00-00-00-00");
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH && DevicePathSubType(dp) == MSG_MAC_ADDR_DP) {
			const UINT8 *m = ((MAC_ADDR_DEVICE_PATH *)dp)->MacAddress.Addr;
			tp_snprintf(n->machine, sizeof n->machine, "%02x-%02x-%02x-%02x-%02x-%02x", m[0], m[1], m[2], m[3],
				    m[4], m[5]);
			return;
		}
}

static void use_pxe(struct efi_net *n, EFI_PXE_BASE_CODE_PROTOCOL *pxe);

void efi_net_probe(struct efi_net *n, EFI_LOADED_IMAGE *li, uint64_t boot_tsc)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;

	tp_memset(n, 0, sizeof *n);
	if (li)
		uefi_call_wrapper(BS->HandleProtocol, 3, li->DeviceHandle, &gEfiDevicePathProtocolGuid,
				  (void **)&n->device_path);
	n->boot_tsc = boot_tsc;
	find_mac(n);
	tp_snprintf(n->boot_id, sizeof n->boot_id, "%s-%016llx", n->machine, (unsigned long long)boot_tsc);
	if (!li || uefi_call_wrapper(BS->HandleProtocol, 3, li->DeviceHandle, &gEfiPxeBaseCodeProtocolGuid,
				     (void **)&pxe) != EFI_SUCCESS || !pxe || !pxe->Mode || !pxe->Mode->Started ||
	    pxe->Mode->UsingIpv6)
		return;
	use_pxe(n, pxe);
}

/* The addresses and the boot file of a started PXE base code. */
static void use_pxe(struct efi_net *n, EFI_PXE_BASE_CODE_PROTOCOL *pxe)
{
	n->pxe = pxe;
	tp_memcpy(n->station, pxe->Mode->StationIp.v4.Addr, 4);
	tp_memcpy(n->subnet, pxe->Mode->SubnetMask.v4.Addr, 4);
	/* The TFTP server of the boot: siaddr of the DHCP answer, or of the
	 * proxy DHCP offer when a proxy named the boot file. */
	tp_memcpy(n->server, pxe->Mode->DhcpAck.Dhcpv4.BootpSiAddr, 4);
	tp_memcpy(n->boot_file, pxe->Mode->DhcpAck.Dhcpv4.BootpBootFile, sizeof n->boot_file - 1);
	if (pxe->Mode->ProxyOfferReceived && !n->boot_file[0]) {
		tp_memcpy(n->server, pxe->Mode->ProxyOffer.Dhcpv4.BootpSiAddr, 4);
		tp_memcpy(n->boot_file, pxe->Mode->ProxyOffer.Dhcpv4.BootpBootFile, sizeof n->boot_file - 1);
	}
}

char *efi_net_fetch(struct efi_net *n, const char *name, UINTN *len)
{
	EFI_IP_ADDRESS server;
	UINT8 path[sizeof n->boot_file + 32];
	UINT64 size = EFI_NET_CFG_MAX;
	size_t dir = 0, k;
	char *buf;
	EFI_STATUS st;

	if (!n->pxe)
		return NULL;
	for (k = 0; n->boot_file[k]; k++)
		if (n->boot_file[k] == '/')
			dir = k + 1;
	if (dir + tp_strlen(name) + 1 > sizeof path || !(buf = AllocatePool(EFI_NET_CFG_MAX + 1)))
		return NULL;
	tp_memcpy(path, n->boot_file, dir);
	tp_memcpy(path + dir, name, tp_strlen(name) + 1);
	tp_memset(&server, 0, sizeof server);
	tp_memcpy(server.v4.Addr, n->server, 4);
	st = uefi_call_wrapper(n->pxe->Mtftp, 10, n->pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, FALSE, &size, NULL,
			       &server, path, NULL, FALSE);
	if (st != EFI_SUCCESS || size > EFI_NET_CFG_MAX) {
		FreePool(buf);
		return NULL;
	}
	buf[size] = 0;
	*len = (UINTN)size;
	return buf;
}

/* A boot that did not come through PXE, given net=: the first NIC whose
 * PXE base code gets an address by DHCP (started here if need be) sends.
 * OVMF's boot manager connects no NIC driver for a disk boot, so there is
 * none to find there (connecting every PCI device from here made OVMF
 * PXE-boot instead of running the app: left alone).
 * Its DHCP is bounded by the firmware's own retries (EDK2: 4 tries over
 * about a minute with no server); it is the only wait not bounded here. */
static bool start_dhcp(struct efi_net *n, char *why, size_t cap)
{
	EFI_HANDLE *h = NULL;
	UINTN count = 0, i;
	EFI_STATUS st = EFI_NOT_FOUND;

	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &gEfiPxeBaseCodeProtocolGuid, NULL, &count, &h) !=
	    EFI_SUCCESS) {
		tp_snprintf(why, cap, "this boot did not come through PXE, and the firmware started no PXE base code to "
				      "get an address with (a disk boot: boot from the network to send)");
		return false;
	}
	for (i = 0; i < count && !n->pxe; i++) {
		EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;
		if (uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &gEfiPxeBaseCodeProtocolGuid, (void **)&pxe) !=
		    EFI_SUCCESS || !pxe || !pxe->Mode)
			continue;
		st = pxe->Mode->Started ? EFI_SUCCESS : uefi_call_wrapper(pxe->Start, 2, pxe, FALSE);
		if (st == EFI_SUCCESS && !pxe->Mode->DhcpAckReceived)
			st = uefi_call_wrapper(pxe->Dhcp, 2, pxe, FALSE);
		if (st != EFI_SUCCESS || pxe->Mode->UsingIpv6)
			continue;
		uefi_call_wrapper(BS->HandleProtocol, 3, h[i], &gEfiDevicePathProtocolGuid, (void **)&n->device_path);
		use_pxe(n, pxe);
		find_mac(n);
		tp_snprintf(n->boot_id, sizeof n->boot_id, "%s-%016llx", n->machine, (unsigned long long)n->boot_tsc);
	}
	uefi_call_wrapper(BS->FreePool, 1, h);
	if (!n->pxe)
		tp_snprintf(why, cap, "this boot did not come through PXE, and DHCP on its %llu NIC(s) gave no address "
				      "(EFI status 0x%llx)", (unsigned long long)count, (unsigned long long)st);
	return n->pxe != NULL;
}

/* The hello (the HTTP instance is open): true when the collector takes this sender. */
static bool hello(struct efi_net *n, const char *what)
{
	char why[160];
	unsigned code = efi_http_post(n, "", 0, true, why, sizeof why);

	if (code >= 200 && code < 300)
		return true;
	if (code == 403)
		tp_snprintf(n->begin_problem, sizeof n->begin_problem, "%sthe collector at %s refused the token (HTTP 403)",
			    what, n->url);
	else if (code)
		tp_snprintf(n->begin_problem, sizeof n->begin_problem, "%sthe collector at %s answered the hello with HTTP %u",
			    what, n->url, code);
	else
		tp_snprintf(n->begin_problem, sizeof n->begin_problem, "%sthe collector at %s %s", what, n->url, why);
	return false;
}

/* net=http:// on firmware with UDP but no HTTP: syslog to port 514 of the same host. */
static void syslog_instead(struct efi_net *n)
{
	char asked[OPT_NET_URL_MAX];

	tp_snprintf(asked, sizeof asked, "%s", n->url);
	n->kind = EFI_NET_SYSLOG;
	n->port = 514;
	tp_snprintf(n->url, sizeof n->url, "syslog://%u.%u.%u.%u:514", n->dest[0], n->dest[1], n->dest[2], n->dest[3]);
	tp_snprintf(n->begin_problem, sizeof n->begin_problem,
		    "the firmware has no HTTP protocol: sending syslog to %u.%u.%u.%u:514 instead of %s", n->dest[0],
		    n->dest[1], n->dest[2], n->dest[3], asked);
}

static void open_http(struct efi_net *n, bool auto_)
{
	const char *what = auto_ ? "net=auto (the boot server): " : "";
	char why[160];

	n->kind = EFI_NET_HTTP;
	tp_snprintf(n->host_header, sizeof n->host_header, "%u.%u.%u.%u:%u", n->dest[0], n->dest[1], n->dest[2],
		    n->dest[3], n->port);
	if (!efi_http_open(n, why, sizeof why)) {
		if (!auto_ && n->no_http) {
			syslog_instead(n);
			return;
		}
		tp_snprintf(n->begin_problem, sizeof n->begin_problem, "%s%s", what, why);
	} else if (hello(n, what)) {
		return;
	}
	n->kind = EFI_NET_OFF;
	n->url[0] = 0;
}

void efi_net_open(struct efi_net *n, const struct options *o)
{
	uint64_t t0;
	bool auto_ = o->net == OPT_NET_AUTO;
	char why[200];

	n->kind = EFI_NET_OFF;
	n->url[0] = n->begin_problem[0] = n->problem[0] = 0;
	tp_snprintf(n->token, sizeof n->token, "%s", o->net_token);
	n->drop = o->net_drop;
	if (o->net == OPT_NET_NONE || (auto_ && !n->pxe))
		return;
	if (!n->pxe && !start_dhcp(n, why, sizeof why)) {
		tp_snprintf(n->begin_problem, sizeof n->begin_problem, "net=%s: %s", o->net_url, why);
		return;
	}
	/* The TSC's rate, for the bounds: a Stall of the firmware's own clock. */
	t0 = rdtsc();
	uefi_call_wrapper(BS->Stall, 1, (UINTN)CALIBRATE_US);
	n->tsc_hz = (rdtsc() - t0) * (1000000 / CALIBRATE_US);
	t0 = rdtsc(); /* hello_cycles: the set-up and the hello, not the 20 ms above */
	if (auto_ && !(n->server[0] | n->server[1] | n->server[2] | n->server[3])) {
		tp_snprintf(n->begin_problem, sizeof n->begin_problem,
			    "net=auto: the DHCP answer named no boot server (siaddr 0.0.0.0): nothing to send to");
		return;
	}
	if (auto_) {
		tp_memcpy(n->dest, n->server, 4);
		n->port = OPT_NET_AUTO_PORT;
		tp_snprintf(n->path, sizeof n->path, "%s", OPT_NET_AUTO_PATH);
	} else {
		tp_memcpy(n->dest, o->net_ip, 4);
		n->port = o->net_port;
		tp_snprintf(n->path, sizeof n->path, "%s", o->net_path);
	}
	if (auto_)
		tp_snprintf(n->url, sizeof n->url, "http://%u.%u.%u.%u:%u%s", n->dest[0], n->dest[1], n->dest[2],
			    n->dest[3], n->port, n->path);
	else
		tp_snprintf(n->url, sizeof n->url, "%s", o->net_url);
	if (o->net == OPT_NET_SYSLOG)
		n->kind = EFI_NET_SYSLOG;
	else
		open_http(n, auto_);
	n->hello_cycles = rdtsc() - t0;
}

/* A record line without its line end. */
static size_t trimmed(const char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	return len;
}

static bool is_end(const char *s, size_t len)
{
	static const char end[] = "{\"type\":\"end\"";
	return len >= sizeof end - 1 && !tp_memcmp(s, end, sizeof end - 1);
}

static void send_http(struct efi_net *n, const char *s, size_t len)
{
	char why[160];
	unsigned code = efi_http_post(n, s, len, false, why, sizeof why);

	if (code >= 200 && code < 300) {
		n->records++;
		n->bytes += len;
	} else if (code == 400 || code == 413) {
		n->rejected++; /* that record only: the collector says it is not one, or too big */
	} else {
		n->stopped = true;
		if (code == 403)
			tp_snprintf(n->problem, sizeof n->problem, "the collector refused the token (HTTP 403)");
		else if (code)
			tp_snprintf(n->problem, sizeof n->problem, "the collector answered HTTP %u", code);
		else
			tp_snprintf(n->problem, sizeof n->problem, "the collector %s", why);
	}
}

void efi_net_write(void *ctx, const char *s, size_t len)
{
	struct efi_net *n = ctx;
	uint64_t flags, t0;

	if (n->kind == EFI_NET_OFF || n->stopped || n->busy)
		return;
	n->busy = true;
	t0 = rdtsc();
	flags = efi_net_enter();
	len = trimmed(s, len);
	if (n->kind == EFI_NET_HTTP)
		send_http(n, s, len);
	else if (efi_syslog_send(n, s, len) && is_end(s, len))
		efi_syslog_again(n);
	cpu_keep_if_clear(flags);
	n->cycles += rdtsc() - t0;
	n->busy = false;
}

void efi_net_note(const struct efi_net *n, char *out, size_t cap)
{
	int k;

	out[0] = 0;
	if (n->kind == EFI_NET_OFF)
		return;
	if (n->stopped)
		k = tp_snprintf(out, cap, "tickprobe (UEFI): sending the log to %s stopped after %llu records: %s.", n->url,
				(unsigned long long)n->records, n->problem);
	else
		k = tp_snprintf(out, cap, "tickprobe (UEFI): the log was sent to %s: %llu records.", n->url,
				(unsigned long long)n->records);
	if (k < 0 || (size_t)k >= cap)
		return;
	if (n->kind == EFI_NET_SYSLOG)
		k += tp_snprintf(out + k, cap - (size_t)k, " Then the whole log again: %llu datagrams%s.",
				 (unsigned long long)n->again, n->kept_short ? ", short: a record did not fit the copy" : "");
	if (n->kind == EFI_NET_SYSLOG && n->drop && k > 0 && (size_t)k < cap)
		k += tp_snprintf(out + k, cap - (size_t)k, " net_drop=%u left out %llu the first time.", n->drop,
				 (unsigned long long)n->dropped);
	if (k > 0 && (size_t)k < cap)
		tp_snprintf(out + k, cap - (size_t)k, " The set-up and hello took %llu TSC cycles, sending %llu%s.",
			    (unsigned long long)n->hello_cycles, (unsigned long long)n->cycles,
			    n->rejected ? " (some records were rejected: HTTP 400/413)" : "");
}
