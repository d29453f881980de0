/* SPDX-License-Identifier: BSD-2-Clause */
/* EFI status codes in words (see efi_status.h).  The network codes come
 * from boot/efi_http.h, which has those gnu-efi 3.0.15 lacks. */
#include "boot/efi_status.h"
#include "boot/efi_http.h"

const char *efi_status_words(EFI_STATUS st)
{
	switch (st) {
	case EFI_WRITE_PROTECTED: return "the medium is write-protected";
	case EFI_VOLUME_FULL: return "the volume is full";
	case EFI_ACCESS_DENIED: return "access denied";
	case EFI_NO_MEDIA: return "no medium";
	case EFI_MEDIA_CHANGED: return "the medium was changed";
	case EFI_DEVICE_ERROR: return "a device error";
	case EFI_VOLUME_CORRUPTED: return "the file system is damaged";
	case EFI_OUT_OF_RESOURCES: return "the firmware is out of memory";
	case EFI_UNSUPPORTED: return "not supported by the firmware";
	case EFI_NOT_FOUND: return "not found";
	case EFI_TIMEOUT: return "the firmware's own timeout passed";
	case EFI_NO_MAPPING: return "the NIC has no address yet";
	case EFI_CONNECTION_REFUSED: return "the connection was refused (nothing listens there?)";
	case EFI_CONNECTION_RESET: return "the connection was reset (nothing listens there?)";
	case EFI_CONNECTION_FIN: return "the connection was closed";
	case EFI_HOST_UNREACHABLE: return "the host is unreachable";
	case EFI_HTTP_ERROR: return "the answer was not HTTP the firmware could parse";
	default: return NULL;
	}
}
