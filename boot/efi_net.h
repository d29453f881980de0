/* SPDX-License-Identifier: BSD-2-Clause */
/* The network console on the UEFI path: a console (probe/platform.h) that
 * sends every record line, as the serial line gets it, to a collector
 * (`tickprobe collect`), and the boot server's files for a network boot.
 *
 *   net=http://IPv4:PORT/PATH  one POST per record through the firmware's
 *                              EFI_HTTP_PROTOCOL (boot/efi_http.c), after a
 *                              hello the collector must answer with 204;
 *   net=syslog://IPv4:PORT     one RFC 5424 datagram per record through the
 *                              PXE base code's UdpWrite (boot/efi_syslog.c),
 *                              and the whole log again after the end record;
 *   net=auto (the default)     a PXE boot's server at http://SERVER:8514/log,
 *                              if it answers the hello; else nothing.
 *
 * Sending goes through a PXE base code: it holds the station address the
 * HTTP instance is configured with (EDK2's default Ip4Config2 policy may
 * leave the NIC with none) and the UDP sender.  A PXE boot uses the one it
 * came through; a disk boot given net= starts one and asks DHCP.  Every wait is bounded (3 s a request); a
 * failure stops the sending for the rest of the run, never the run. */
#ifndef BOOT_EFI_NET_H
#define BOOT_EFI_NET_H

#include <efi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "boot/efi_http.h"
#include "probe/options.h"

#define EFI_NET_WAIT_S 3           /* the bound on one request and its answer */
#define EFI_NET_CFG_MAX (16 * 1024) /* the most of a file from the boot server */

enum efi_net_kind { EFI_NET_OFF = 0, EFI_NET_HTTP, EFI_NET_SYSLOG };

struct efi_net {
	/* The boot: found by efi_net_probe. */
	EFI_PXE_BASE_CODE_PROTOCOL *pxe; /* on the image's device: a PXE boot; else NULL */
	EFI_DEVICE_PATH *device_path;    /* the image's device */
	uint8_t station[4], subnet[4], server[4];
	char boot_file[128];             /* the DHCP boot file name ("pxe/BOOTX64.EFI") */
	char machine[18];                /* the MAC, "52-54-00-12-34-56" */
	char boot_id[40];                /* machine, '-', the TSC at efi_main in 16 hex digits */
	uint64_t boot_tsc;               /* the TSC at efi_main */
	uint64_t tsc_hz;                 /* from a 20 ms Stall (efi_net_open): bounds every wait */

	/* The sending: set by efi_net_open. */
	enum efi_net_kind kind;
	char url[OPT_NET_URL_MAX];       /* where the records go ("" for nowhere) */
	char begin_problem[256];         /* why not, or what instead, at the begin record ("" for nothing) */
	char problem[256];               /* why the sending stopped */
	uint8_t dest[4];
	uint16_t port;
	char path[OPT_NET_PATH_MAX];
	char token[OPT_NET_TOKEN_MAX + 1];
	uint32_t drop;                   /* net_drop=K */

	/* HTTP (boot/efi_http.c). */
	EFI_HTTP_PROTOCOL *http;
	bool no_http;                    /* the NIC has no HTTP service binding */
	EFI_HTTPv4_ACCESS_POINT access_point;
	CHAR16 url16[OPT_NET_URL_MAX];
	char host_header[24];

	/* syslog (boot/efi_syslog.c): the first pass's records, for the second. */
	char *kept;
	size_t kept_len, kept_cap;
	bool kept_short;                 /* a record did not fit: the second pass is not whole */
	char *datagram;                  /* room for one message */

	bool busy;                       /* inside a firmware call: an exception must not send again */
	bool stopped;                    /* problem says why */
	uint64_t records, bytes;         /* sent (first pass) */
	uint64_t rejected;               /* HTTP 400/413: that record only */
	uint64_t dropped;                /* syslog, net_drop: dropped on purpose in the first pass */
	uint64_t again;                  /* syslog: sent in the second pass */
	uint64_t hello_cycles;           /* TSC cycles of the set-up and the hello */
	uint64_t cycles;                 /* TSC cycles spent sending records */
};

/* What the boot was: the PXE base code on the loaded image's device, its
 * addresses and boot file, the MAC and the boot's id. */
void efi_net_probe(struct efi_net *n, EFI_LOADED_IMAGE *li, uint64_t boot_tsc);

/* name from the boot file's directory on the boot server (TFTP, at most
 * EFI_NET_CFG_MAX bytes), NUL-terminated, from the pool; NULL when there is
 * no such file or no PXE boot. */
char *efi_net_fetch(struct efi_net *n, const char *name, UINTN *len);

/* Decides where the records go from the options and says hello; sets url
 * or begin_problem (both may be set: syslog instead of HTTP). */
void efi_net_open(struct efi_net *n, const struct options *o);

/* The console's write (records only). */
void efi_net_write(void *ctx, const char *s, size_t len);

/* The screen's end note: where the log went and how many records. */
void efi_net_note(const struct efi_net *n, char *out, size_t cap);

/* ---- the transports (boot/efi_http.c, boot/efi_syslog.c) ------------- */

/* Finds the NIC's HTTP service and configures an instance with the
 * station address; false with why. */
bool efi_http_open(struct efi_net *n, char *why, size_t cap);
/* One POST (hello: the empty hello) and its answer, within EFI_NET_WAIT_S:
 * the HTTP status number, or 0 with why. */
unsigned efi_http_post(struct efi_net *n, const char *body, size_t len, bool hello, char *why, size_t cap);

/* One record as a datagram (first pass: kept, and dropped when net_drop
 * says so); false with problem set when the sending must stop. */
bool efi_syslog_send(struct efi_net *n, const char *line, size_t len);
/* The second pass: every kept record again. */
void efi_syslog_again(struct efi_net *n);

/* Interrupts on for the network's firmware calls, which need the timer
 * tick; returns the caller's flags, for cpu_keep_if_clear() afterwards. */
uint64_t efi_net_enter(void);
/* The TSC deadline EFI_NET_WAIT_S from now. */
uint64_t efi_net_deadline(const struct efi_net *n);

#endif
