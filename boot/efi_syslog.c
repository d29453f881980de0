/* SPDX-License-Identifier: BSD-2-Clause */
/* syslog for the network console (boot/efi_net.h): one RFC 5424 message per
 * record over UDP, through the PXE base code's UdpWrite,
 *
 *   <134>1 - MACHINE tickprobe BOOT PASS [tickprobe@32473 seq="N" token="T"] RECORD
 *
 * PRI 134 is local0.info; PASS (the MSGID) is "first", then "again" for the
 * whole log sent once more after the end record, so that a collector that
 * lost datagrams fills its gaps (it dedupes by boot and seq).  UDP says
 * nothing of loss: only a send the firmware refuses stops the sending. */
#include <efi.h>
#include <efilib.h>
#include "boot/efi_net.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define SYSLOG_PEN 32473        /* the example enterprise number of RFC 5612, as the contract says */
#define HEADER_MAX 320          /* everything before the record: ids, seq, token */
#define DATAGRAM_MAX 65507      /* the most a UDP datagram over IPv4 carries */
#define KEEP_FIRST (256 * 1024) /* the copy for the second pass, grown by doubling */

/* UdpWrite takes 11 arguments, one more than uefi_call_wrapper carries:
 * called directly, with the firmware's (Microsoft) convention. */
typedef EFI_STATUS(__attribute__((ms_abi)) *udp_write_fn)(EFI_PXE_BASE_CODE_PROTOCOL *, UINT16, EFI_IP_ADDRESS *,
							   EFI_PXE_BASE_CODE_UDP_PORT *, EFI_IP_ADDRESS *,
							   EFI_IP_ADDRESS *, EFI_PXE_BASE_CODE_UDP_PORT *, UINTN *,
							   VOID *, UINTN *, VOID *);

/* The record's "seq" (the log writer puts it second, probe/log.c); -1 if none. */
static long long record_seq(const char *s, size_t len)
{
	static const char key[] = "\"seq\":";
	size_t i, lim = len < 64 ? len : 64;

	for (i = 0; i + sizeof key - 1 <= lim; i++)
		if (!tp_memcmp(s + i, key, sizeof key - 1)) {
			long long v = 0;
			for (i += sizeof key - 1; i < len && s[i] >= '0' && s[i] <= '9'; i++)
				v = v * 10 + (s[i] - '0');
			return v;
		}
	return -1;
}

/* The first pass's copy: line and '\n'; false when it cannot grow. */
static bool keep(struct efi_net *n, const char *s, size_t len)
{
	if (n->kept_len + len + 1 > n->kept_cap) {
		size_t cap = n->kept_cap ? n->kept_cap : KEEP_FIRST;
		char *more;
		while (cap < n->kept_len + len + 1)
			cap *= 2;
		if (!(more = AllocatePool(cap)))
			return false;
		if (n->kept) {
			tp_memcpy(more, n->kept, n->kept_len);
			FreePool(n->kept);
		}
		n->kept = more;
		n->kept_cap = cap;
	}
	tp_memcpy(n->kept + n->kept_len, s, len);
	n->kept_len += len;
	n->kept[n->kept_len++] = '\n';
	return true;
}

/* One datagram; false with problem set when the firmware refuses it. */
static bool send(struct efi_net *n, const char *pass, long long seq, const char *s, size_t len)
{
	EFI_IP_ADDRESS dest;
	EFI_PXE_BASE_CODE_UDP_PORT port = n->port, src = 0;
	UINTN size;
	EFI_STATUS st;
	int k;

	if (!n->datagram && !(n->datagram = AllocatePool(DATAGRAM_MAX))) {
		tp_snprintf(n->problem, sizeof n->problem, "no memory for a datagram");
		return false;
	}
	k = tp_snprintf(n->datagram, HEADER_MAX, "<134>1 - %s tickprobe %s %s [tickprobe@%u seq=\"%lld\"%s%s%s] ",
			n->machine, n->boot_id, pass, SYSLOG_PEN, seq, n->token[0] ? " token=\"" : "", n->token,
			n->token[0] ? "\"" : "");
	if (k < 0 || k >= HEADER_MAX || (size_t)k + len > DATAGRAM_MAX)
		return true; /* too big for one datagram: left out (the record limit is 96 KiB) */
	tp_memcpy(n->datagram + k, s, len);
	size = (UINTN)k + len;
	tp_memset(&dest, 0, sizeof dest);
	tp_memcpy(dest.v4.Addr, n->dest, 4);
	st = ((udp_write_fn)n->pxe->UdpWrite)(n->pxe, (UINT16)(EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_PORT |
							       EFI_PXE_BASE_CODE_UDP_OPFLAGS_MAY_FRAGMENT),
					      &dest, &port, NULL, NULL, &src, NULL, NULL, &size, n->datagram);
	if (st != EFI_SUCCESS) {
		n->stopped = true;
		tp_snprintf(n->problem, sizeof n->problem, "the firmware would not send a UDP datagram (EFI status 0x%llx)",
			    (unsigned long long)st);
		return false;
	}
	return true;
}

bool efi_syslog_send(struct efi_net *n, const char *line, size_t len)
{
	long long seq = record_seq(line, len);

	if (!n->kept_short && !keep(n, line, len))
		n->kept_short = true;
	/* net_drop=K, a test hook: the datagrams a lossy network would lose. */
	if (n->drop && seq >= 0 && seq % n->drop == n->drop - 1) {
		n->dropped++;
		return true;
	}
	if (!send(n, "first", seq, line, len))
		return false;
	n->records++;
	n->bytes += len;
	return true;
}

void efi_syslog_again(struct efi_net *n)
{
	size_t i = 0;

	while (i < n->kept_len && !n->stopped) {
		size_t j = i;
		while (j < n->kept_len && n->kept[j] != '\n')
			j++;
		if (!send(n, "again", record_seq(n->kept + i, j - i), n->kept + i, j - i))
			return;
		n->again++;
		i = j + 1;
	}
}
