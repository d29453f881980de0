#include "arch/x86/run.h"
#include "arch/x86/cpu.h"
#include "drivers/uart.h"
#include "probe/fmt.h"

static struct uart com;

void tickprobe_main(const struct boot_info *bi)
{
	char line[128];
	int n;
	uart_init(&com, 0x3f8, 115200);
	n = tp_snprintf(line, sizeof line, "tickprobe %s boot=%s cmdline=%s\n", TICKPROBE_VERSION, bi->boot, bi->cmdline ? bi->cmdline : "");
	uart_write(&com, line, (size_t)n);
	if (bi->screen_write)
		bi->screen_write(bi->screen_ctx, line, (size_t)n);
	outb(0xf4, EXIT_CODE_OK);
	for (;;)
		__asm__ volatile("cli; hlt");
}
