/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/rtc.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define RTC_INDEX 0x70
#define RTC_DATA 0x71
/* Bit 7 of the index port is the NMI-disable bit on the PC.  The port is
 * write-only on most chipsets (Intel PCHs read it back only in their
 * alternate access mode; QEMU answers 0xff), so what the firmware left
 * cannot be read: every write here leaves bit 7 clear, NMIs enabled, which
 * is how every BIOS hands the machine over and how Linux writes it. */
#define NMI_BIT 0x00
#define REG_SECONDS 0x00
#define REG_A 0x0a /* bit 7 UIP: an update is due within 244 us, or under way */
#define REG_B 0x0b /* bit 7 SET (updates held), bit 2 DM (binary), bit 1 24-hour */
#define REG_A_UIP 0x80
#define REG_A_DV 0x70 /* the divider: 010b is the 32.768 kHz time base running */
#define REG_B_SET 0x80
#define REG_B_BINARY 0x04
#define REG_B_24H 0x02

/* rtc: select the seconds register, read it.  rtc-time: wait until UIP is
 * clear, read seconds, minutes, hours, day, month and year, read them all
 * again, and take the time when the two agree; else all of it again.
 *
 * Bounds: UIP is set for at most 244 us before an update plus the update's
 * 1984 us (MC146818 data sheet, tBUC and tUC); 65536 polls of two ISA
 * accesses cover that at 40 ns a poll or more, and an ISA access is about
 * 1 us.  Two reads agree unless an update fell between them, which after a
 * clear UIP takes 244 us: 8 attempts are more than enough.  The path
 * without waiting and with the first two reads agreeing is RTC_TIME_INSNS
 * instructions: the loops' dec/jnz are not on it. */
uint64_t rtc_read_seconds(const struct counter *c);
uint64_t rtc_read_time(const struct counter *c);
#define FIELD(idx, reg)                                                        \
	"	shl $8, %" reg "\n"                                             \
	"	mov $" idx ", %al\n"                                            \
	"	out %al, $0x70\n"                                               \
	"	in $0x71, %al\n"                                                \
	"	mov %al, %" reg "b\n"
#define SIX(reg)                                                               \
	"	xor %" reg "d, %" reg "d\n"                                     \
	FIELD("0x09", reg) FIELD("0x08", reg) FIELD("0x07", reg)                \
	FIELD("0x04", reg) FIELD("0x02", reg) FIELD("0x00", reg)
__asm__(".text\n"
	"rtc_read_seconds:\n"
	"	mov (%rdi), %eax\n" /* counter.hw: the index, NMI bit included */
	"	out %al, $0x70\n"
	"	in $0x71, %al\n"
	"	ret\n"
	"rtc_read_time:\n"
	"	mov $8, %r11d\n"
	"1:	mov $65536, %r10d\n"
	"2:	mov $0x0a, %al\n"
	"	out %al, $0x70\n"
	"	in $0x71, %al\n"
	"	test $0x80, %al\n"
	"	jz 3f\n"
	"	dec %r10d\n"
	"	jnz 2b\n"
	"3:\n"
	SIX("r8")
	SIX("r9")
	"	cmp %r8, %r9\n"
	"	je 4f\n"
	"	dec %r11d\n"
	"	jnz 1b\n"
	"4:	mov %r8, %rax\n"
	"	ret\n");
/* 1 + 1 + 5 (one UIP poll, clear) + 2 x 31 (six fields) + 2 (cmp, je) + 1 */
#define RTC_TIME_INSNS 72

static uint8_t cmos(uint8_t reg)
{
	outb(RTC_INDEX, NMI_BIT | reg);
	return inb(RTC_DATA);
}

/* A 1 Hz clock, read in 2 and 26 ISA accesses (2 and 30-50 us on
 * hardware): its cost, not a fine distribution, is the question, so both
 * take fewer samples.  Neither is a counter in the delta sense (BCD seconds
 * wrap at 60); both tick once a second, which probe/run_clocks.c times edge
 * to edge (rated). */
static const struct counter_desc rtc_counters[] = {
	{ .name = "rtc", .read = rtc_read_seconds, .insns = 3, .method = "outb 0x70 (seconds), inb 0x71",
	  .width = 8, .nominal_hz = 1, .rated = true, .samples_div = 10 },
	{ .name = "rtc-time", .read = rtc_read_time, .insns = RTC_TIME_INSNS,
	  .method = "UIP clear, 6 fields read twice until equal: 26 ISA accesses", .width = 48 /* six bytes, the year highest */,
	  .nominal_hz = 1, .rate_from = "rtc", .needs = "rtc", .samples_div = 100 },
};
#define RTC_COUNTERS (sizeof rtc_counters / sizeof rtc_counters[0])

/* The one struct this part owns: the descriptors as attach filled them. */
static struct {
	struct counter c[RTC_COUNTERS];
} rtc;

/* Absent where nothing answers at the ports. */
static void rtc_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	uint8_t a = cmos(REG_A), b = cmos(REG_B), sec = cmos(REG_SECONDS);

	(void)env;
	for (unsigned i = 0; i < RTC_COUNTERS; i++) {
		counter_from_desc(&rtc.c[i], &rtc_counters[i]);
		rtc.c[i].hw = NMI_BIT | REG_SECONDS;
		counter_state_init(&s[i]);
		c[i] = &rtc.c[i];
	}
	if (a == 0xff && b == 0xff && sec == 0xff) {
		s[0].present = s[1].present = false;
		tp_snprintf(s[0].reason, sizeof s[0].reason,
			    "no CMOS RTC answers at ports 0x70/0x71 (registers A, B and the seconds read 0xff)");
		tp_memcpy(s[1].reason, s[0].reason, sizeof s[1].reason);
		return;
	}
	/* A clock whose updates are held, or whose divider is not running, is
	 * there but will not tick: said here, found by the tick check. */
	if (b & REG_B_SET)
		tp_snprintf(s[0].note, sizeof s[0].note, "register B 0x%02x: SET, updates held", b);
	else if ((a & REG_A_DV) != 0x20)
		tp_snprintf(s[0].note, sizeof s[0].note, "register A 0x%02x: the divider is not the 32.768 kHz time base", a);
	tp_memcpy(s[1].note, s[0].note, sizeof s[1].note);
}

const struct counter_driver rtc_driver = {
	.name = "CMOS RTC", .counters = rtc_counters, .n = RTC_COUNTERS, .attach = rtc_attach,
};

static unsigned field(uint64_t t, int byte, bool binary)
{
	unsigned v = (unsigned)(t >> (8 * byte)) & 0xff;
	return binary ? v : (v >> 4) * 10 + (v & 0xf);
}

static bool bcd_ok(unsigned v) { return (v & 0xf) <= 9 && (v >> 4) <= 9; }

bool rtc_now(char *buf, size_t cap)
{
	struct counter c;
	uint8_t b = cmos(REG_B);
	bool binary = b & REG_B_BINARY;
	unsigned year, month, day, hour, min, sec;
	uint64_t t;

	/* Nothing answers: not even the UIP wait (65536 polls of 0xff). */
	if (b == 0xff)
		return false;
	counter_from_desc(&c, &rtc_counters[1]);
	c.hw = NMI_BIT | REG_SECONDS;
	t = rtc_read_time(&c); /* bytes, low to high: s, min, h, day, month, year */
	if (!binary)
		for (int i = 0; i < 6; i++)
			if (!bcd_ok((unsigned)(t >> (8 * i)) & (i == 2 ? 0x7f : 0xff)))
				return false;
	sec = field(t, 0, binary);
	min = field(t, 1, binary);
	hour = field(t & ~(0x80ull << 16), 2, binary); /* bit 7: PM, in 12-hour mode */
	if (!(b & REG_B_24H)) {
		hour %= 12;
		if (t >> 16 & 0x80)
			hour += 12;
	}
	day = field(t, 3, binary);
	month = field(t, 4, binary);
	year = 2000 + field(t, 5, binary);
	if (sec > 59 || min > 59 || hour > 23 || !day || day > 31 || !month || month > 12)
		return false;
	tp_snprintf(buf, cap, "%04u-%02u-%02uT%02u:%02u:%02u", year, month, day, hour, min, sec);
	return true;
}
