/* SPDX-License-Identifier: BSD-2-Clause */
/* HTTP for the network console (boot/efi_net.h): the firmware's
 * EFI_HTTP_PROTOCOL, one instance on the NIC the image was booted from.
 * Each POST and its answer are polled (Http->Poll) until the token's event
 * is signalled or EFI_NET_WAIT_S have passed on the TSC: the core calls in
 * with interrupts off, so nothing may wait on the firmware's timer alone. */
#include <efi.h>
#include <efilib.h>
#include "boot/efi_net.h"
#include "boot/efi_status.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define MAX_HEADERS 8
#define ANSWER_BODY 512 /* an error answer's text is read and dropped; a longer one is cut */

unsigned efi_http_status_number(EFI_HTTP_STATUS_CODE code)
{
	static const unsigned short number[] = {
		0,   100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307,
		400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417,
		500, 501, 502, 503, 504, 505, 308,
	};
	return (unsigned)code < sizeof number / sizeof number[0] ? number[code] : 0;
}

/* "did not answer (sending the request): the connection was reset ..." */
static void say_status(char *why, size_t cap, const char *what, EFI_STATUS st)
{
	/* EFI_NOT_FOUND from the IP layer: no route, not a missing file. */
	const char *w = st == EFI_NOT_FOUND ? "no route to the host" : efi_status_words(st);
	if (w)
		tp_snprintf(why, cap, "did not answer (%s): %s", what, w);
	else
		tp_snprintf(why, cap, "did not answer (%s): EFI status 0x%llx", what, (unsigned long long)st);
}

bool efi_http_open(struct efi_net *n, char *why, size_t cap)
{
	EFI_GUID sb_guid = EFI_HTTP_SERVICE_BINDING_GUID, http_guid = EFI_HTTP_PROTOCOL_GUID;
	EFI_DEVICE_PATH *dp = n->device_path;
	EFI_SERVICE_BINDING *sb = NULL;
	EFI_HANDLE nic = NULL, child = NULL;
	EFI_HTTP_CONFIG_DATA config;
	EFI_STATUS st;
	size_t i;

	n->no_http = false;
	if (n->http)
		return true;
	/* The NIC's handle is the nearest one up the image device's path that
	 * carries the service (PXE's own handle is a child of it). */
	if (!dp || uefi_call_wrapper(BS->LocateDevicePath, 3, &sb_guid, &dp, &nic) != EFI_SUCCESS ||
	    uefi_call_wrapper(BS->HandleProtocol, 3, nic, &sb_guid, (void **)&sb) != EFI_SUCCESS) {
		n->no_http = true;
		tp_snprintf(why, cap, "the firmware has no HTTP protocol on the boot NIC");
		return false;
	}
	if ((st = uefi_call_wrapper(sb->CreateChild, 2, sb, &child)) != EFI_SUCCESS ||
	    (st = uefi_call_wrapper(BS->HandleProtocol, 3, child, &http_guid, (void **)&n->http)) != EFI_SUCCESS) {
		n->http = NULL;
		tp_snprintf(why, cap, "the firmware's HTTP service gave no instance (EFI status 0x%llx)",
			    (unsigned long long)st);
		return false;
	}
	/* The station address of the PXE boot, not the default one: EDK2's
	 * Ip4Config2 policy may have given the NIC none (PXE's DHCP is its own). */
	tp_memset(&n->access_point, 0, sizeof n->access_point);
	n->access_point.UseDefaultAddress = FALSE;
	tp_memcpy(n->access_point.LocalAddress.Addr, n->station, 4);
	tp_memcpy(n->access_point.LocalSubnet.Addr, n->subnet, 4);
	config.HttpVersion = HttpVersion11;
	config.TimeOutMillisec = EFI_NET_WAIT_S * 1000;
	config.LocalAddressIsIPv6 = FALSE;
	config.AccessPoint.IPv4Node = &n->access_point;
	if ((st = uefi_call_wrapper(n->http->Configure, 2, n->http, &config)) != EFI_SUCCESS) {
		n->http = NULL;
		tp_snprintf(why, cap, "the firmware's HTTP instance would not take the station address %u.%u.%u.%u "
			    "(EFI status 0x%llx)", n->station[0], n->station[1], n->station[2], n->station[3],
			    (unsigned long long)st);
		return false;
	}
	for (i = 0; n->url[i] && i + 1 < sizeof n->url16 / sizeof n->url16[0]; i++)
		n->url16[i] = (CHAR16)n->url[i];
	n->url16[i] = 0;
	return true;
}

/* Polls until the token's event is signalled or the deadline passes. */
static bool wait_token(struct efi_net *n, EFI_HTTP_TOKEN *t, uint64_t deadline)
{
	for (;;) {
		if (uefi_call_wrapper(BS->CheckEvent, 1, t->Event) == EFI_SUCCESS)
			return true;
		if (rdtsc() > deadline)
			return false;
		uefi_call_wrapper(n->http->Poll, 1, n->http);
	}
}

static UINTN fill_headers(struct efi_net *n, EFI_HTTP_HEADER *h, size_t len, bool hello, char *length, size_t lcap)
{
	UINTN k = 0;

	tp_snprintf(length, lcap, "%llu", (unsigned long long)len);
	h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"Host", (CHAR8 *)n->host_header };
	h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"Content-Length", (CHAR8 *)length };
	if (!hello)
		h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"Content-Type", (CHAR8 *)"application/json" };
	else
		h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"X-Tickprobe-Hello", (CHAR8 *)"1" };
	h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"X-Tickprobe-Machine", (CHAR8 *)n->machine };
	h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"X-Tickprobe-Boot", (CHAR8 *)n->boot_id };
	if (n->token[0])
		h[k++] = (EFI_HTTP_HEADER){ (CHAR8 *)"X-Tickprobe-Token", (CHAR8 *)n->token };
	return k;
}

/* A Response call and its wait; false with why. */
static bool response(struct efi_net *n, EFI_HTTP_MESSAGE *msg, uint64_t deadline, char *why, size_t cap)
{
	EFI_HTTP_TOKEN tok;
	EFI_STATUS st;
	bool ok = false;

	tp_memset(&tok, 0, sizeof tok);
	tok.Message = msg;
	tok.Status = EFI_NOT_READY;
	if (uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &tok.Event) != EFI_SUCCESS) {
		tp_snprintf(why, cap, "could not be waited for: the firmware gave no event");
		return false;
	}
	if ((st = uefi_call_wrapper(n->http->Response, 2, n->http, &tok)) != EFI_SUCCESS) {
		say_status(why, cap, "reading the answer", st);
	} else if (!wait_token(n, &tok, deadline)) {
		uefi_call_wrapper(n->http->Cancel, 2, n->http, &tok);
		tp_snprintf(why, cap, "did not answer within %d s", EFI_NET_WAIT_S);
	} else if (tok.Status == EFI_SUCCESS || (tok.Status == EFI_HTTP_ERROR && msg->Data.Response &&
						 msg->Data.Response->StatusCode != HTTP_STATUS_UNSUPPORTED_STATUS)) {
		ok = true; /* EDK2 ends an answer of 300 or more with EFI_HTTP_ERROR, its status filled in */
	} else {
		say_status(why, cap, "reading the answer", tok.Status);
	}
	uefi_call_wrapper(BS->CloseEvent, 1, tok.Event);
	return ok;
}

/* The answer's Content-Length (0 when none), from the firmware's headers. */
static uint64_t content_length(const EFI_HTTP_MESSAGE *msg)
{
	static const char name[] = "content-length";
	uint64_t v = 0;

	for (UINTN i = 0; i < msg->HeaderCount; i++) {
		const char *f = (const char *)msg->Headers[i].FieldName, *val = (const char *)msg->Headers[i].FieldValue;
		size_t k;
		for (k = 0; f && f[k] && k < sizeof name - 1 && (f[k] | 0x20) == name[k]; k++)
			;
		if (!f || k != sizeof name - 1 || f[k] || !val)
			continue;
		for (; *val >= '0' && *val <= '9' && v < (1ull << 40); val++)
			v = v * 10 + (uint64_t)(*val - '0');
	}
	return v;
}

/* The answer to the request just sent: its status number, or 0 with why.
 * The headers first, with no body buffer (a 204 has none to wait for);
 * then any body is read and dropped, so the connection can carry the next
 * request. */
static unsigned answer(struct efi_net *n, uint64_t deadline, char *why, size_t cap)
{
	EFI_HTTP_RESPONSE_DATA resp = { HTTP_STATUS_UNSUPPORTED_STATUS };
	EFI_HTTP_MESSAGE msg;
	char body[ANSWER_BODY];
	uint64_t left;
	unsigned code = 0;

	tp_memset(&msg, 0, sizeof msg);
	msg.Data.Response = &resp;
	if (!response(n, &msg, deadline, why, cap))
		return 0;
	left = content_length(&msg);
	if (msg.Headers)
		FreePool(msg.Headers);
	if (!(code = efi_http_status_number(resp.StatusCode))) {
		tp_snprintf(why, cap, "answered with a status the firmware does not know");
		return 0;
	}
	while (left) {
		tp_memset(&msg, 0, sizeof msg);
		msg.Body = body;
		msg.BodyLength = left < sizeof body ? (UINTN)left : sizeof body;
		/* EDK2 fails the body reads of an answer of 300 or more too
		 * (EFI_HTTP_ERROR, tickprobe collect's "wrong token\n" after its
		 * 403): the status is known by then, and it is what counts. */
		if (!response(n, &msg, deadline, why, cap))
			return code >= 300 ? code : 0;
		if (!msg.BodyLength)
			break;
		left -= msg.BodyLength < left ? msg.BodyLength : left;
	}
	return code;
}

unsigned efi_http_post(struct efi_net *n, const char *body, size_t len, bool hello, char *why, size_t cap)
{
	EFI_HTTP_REQUEST_DATA req = { HttpMethodPost, n->url16 };
	EFI_HTTP_HEADER h[MAX_HEADERS];
	EFI_HTTP_MESSAGE msg;
	EFI_HTTP_TOKEN tok;
	char length[24];
	uint64_t deadline = efi_net_deadline(n);
	unsigned code = 0;
	EFI_STATUS st;

	if (!n->http) {
		tp_snprintf(why, cap, "has no HTTP instance");
		return 0;
	}
	tp_memset(&msg, 0, sizeof msg);
	tp_memset(&tok, 0, sizeof tok);
	msg.Data.Request = &req;
	msg.HeaderCount = fill_headers(n, h, len, hello, length, sizeof length);
	msg.Headers = h;
	msg.BodyLength = len;
	msg.Body = len ? (void *)body : NULL;
	tok.Message = &msg;
	tok.Status = EFI_NOT_READY;
	if (uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &tok.Event) != EFI_SUCCESS) {
		tp_snprintf(why, cap, "could not be waited for: the firmware gave no event");
		return 0;
	}
	if ((st = uefi_call_wrapper(n->http->Request, 2, n->http, &tok)) != EFI_SUCCESS) {
		say_status(why, cap, "sending the request", st);
	} else if (!wait_token(n, &tok, deadline)) {
		uefi_call_wrapper(n->http->Cancel, 2, n->http, &tok);
		tp_snprintf(why, cap, "did not answer within %d s", EFI_NET_WAIT_S);
	} else if (tok.Status != EFI_SUCCESS) {
		say_status(why, cap, "sending the request", tok.Status);
	} else {
		code = answer(n, deadline, why, cap);
	}
	uefi_call_wrapper(BS->CloseEvent, 1, tok.Event);
	return code;
}
