/* SPDX-License-Identifier: BSD-2-Clause */
#include "lib/fmt.h"
#include <stdint.h>

struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, int left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;
	/* Zero padding goes after a sign so that -0042 reads right. */
	if (!left && pad == '0' && n && (s[0] == '-')) {
		put(o, '-');
		s++;
		n--;
	}
	if (!left)
		while (fill--)
			put(o, pad);
	while (n--)
		put(o, *s++);
	if (left)
		while (fill-- > 0)
			put(o, ' ');
}

static size_t utoa(char *tmp, uint64_t v, unsigned base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0, i;
	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

int tp_format_fixed(char *buf, size_t cap, double v, int decimals)
{
	struct out o = { buf, cap, 0 };
	char tmp[32];
	uint64_t scale = 1, whole, frac;
	size_t n, i;
	int d;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	if (v != v) {
		put(&o, 'n');
		put(&o, 'a');
		put(&o, 'n');
		goto done;
	}
	if (v < 0) {
		put(&o, '-');
		v = -v;
	}
	if (v > 1.8e19) {
		put(&o, 'i');
		put(&o, 'n');
		put(&o, 'f');
		goto done;
	}
	for (d = 0; d < decimals; d++)
		scale *= 10;
	/* Whole and fraction apart, so that no value below 2^64 overflows when
	 * scaled; round half up at the last printed decimal, carrying over. */
	whole = (uint64_t)v;
	frac = (uint64_t)((v - (double)whole) * (double)scale + 0.5);
	if (frac >= scale) {
		frac -= scale;
		whole++;
	}
	n = utoa(tmp, whole, 10, 0);
	for (i = 0; i < n; i++)
		put(&o, tmp[i]);
	if (decimals) {
		put(&o, '.');
		for (d = decimals - 1; d >= 0; d--) {
			uint64_t p = 1;
			int k;
			for (k = 0; k < d; k++)
				p *= 10;
			put(&o, (char)('0' + (frac / p) % 10));
		}
	}
done:
	if (cap)
		buf[o.len < cap ? o.len : cap - 1] = 0;
	return (int)o.len;
}

int tp_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct out o = { buf, cap, 0 };
	char tmp[40];

	for (; *fmt; fmt++) {
		int left = 0, width = 0, prec = -1, lng = 0;
		char pad = ' ';
		size_t n;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				pad = '0';
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			prec = 0;
			fmt++;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + (*fmt++ - '0');
		}
		while (*fmt == 'l' || *fmt == 'z') {
			lng = *fmt == 'z' ? 2 : lng + 1;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, long long) : va_arg(ap, int);
			uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			size_t k = 0;
			if (v < 0)
				tmp[k++] = '-';
			n = k + utoa(tmp + k, u, 10, 0);
			put_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned int);
			n = utoa(tmp, v, *fmt == 'u' ? 10 : 16, *fmt == 'X');
			put_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'p': {
			uintptr_t v = (uintptr_t)va_arg(ap, void *);
			tmp[0] = '0';
			tmp[1] = 'x';
			n = 2 + utoa(tmp + 2, v, 16, 0);
			put_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			put_padded(&o, tmp, 1, width, left, ' ');
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			/* The bound first: "%.4s" may point at exactly 4 bytes. */
			for (n = 0; (prec < 0 || (int)n < prec) && s[n]; n++)
				;
			put_padded(&o, s, n, width, left, ' ');
			break;
		}
		case 'f': {
			double v = va_arg(ap, double);
			n = (size_t)tp_format_fixed(tmp, sizeof tmp, v, prec < 0 ? 6 : prec);
			if (n >= sizeof tmp)
				n = sizeof tmp - 1;
			put_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default: /* unknown conversion: print it as is so the mistake shows */
			put(&o, '%');
			if (*fmt)
				put(&o, *fmt);
			else
				fmt--;
			break;
		}
	}
	if (cap)
		buf[o.len < cap ? o.len : cap - 1] = 0;
	return (int)o.len;
}

int tp_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = tp_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}
