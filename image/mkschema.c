/* SPDX-License-Identifier: BSD-2-Clause */
/* mkschema: what probe/log_schema.def says, printed for the people and the
 * tests that cannot read C (the Makefile's `make schema`):
 *
 *   mkschema docs FILE   FILE (docs/log-format.md) with the member table of
 *                        each record between its markers
 *                          <!-- schema: NAME -->  …  <!-- /schema: NAME -->
 *                        made afresh; every record must have its markers
 *   mkschema json        tests/lib/log_schema.json: every record and shape,
 *                        member by member, for the Python checkers
 *
 * Exit status: 0 done, 1 a record without its markers or a file that cannot
 * be read, 2 usage. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/logschema.h"

static const char *const how_text[] = {
	[LD_W] = "always",     [LD_N] = "always, or null",
	[LD_O] = "where said", [LD_ON] = "where said, or null",
	[LD_D] = "derived",    [LD_OD] = "where said; else derived",
};
static const char *const how_code[] = {
	[LD_W] = "W", [LD_N] = "N", [LD_O] = "O", [LD_ON] = "ON", [LD_D] = "D", [LD_OD] = "OD"
};
static const char *const by_code[] = { [LD_ALL] = "all", [LD_IMAGE] = "image", [LD_OS] = "os" };
static const char *const type_code[] = {
	[LD_T_U64] = "U64",     [LD_T_I64] = "I64",   [LD_T_BOOL] = "BOOL", [LD_T_STR] = "STR",
	[LD_T_HEX32] = "HEX32", [LD_T_F0] = "F0",     [LD_T_F1] = "F1",     [LD_T_F2] = "F2",
	[LD_T_F3] = "F3",       [LD_T_F4] = "F4",     [LD_T_F5] = "F5",     [LD_T_F6] = "F6",
	[LD_T_F9] = "F9",       [LD_T_HIST] = "HIST", [LD_T_PAIR] = "PAIR", [LD_T_NONE] = "",
};
static const char *const kind_code[] = {
	[LD_FIELD] = "field",     [LD_ITEM] = "item",       [LD_OBJECT] = "object", [LD_LIST] = "list",
	[LD_LIST_OF] = "list_of", [LD_COLUMNS] = "columns", [LD_MAP] = "map",       [LD_SUFFIXED] = "suffixed"
};

/* ---- the tables of docs/log-format.md ---------------------------------------- */

static const char *type_words(int t)
{
	static const char *const words[] = {
		[LD_T_U64] = "integer",
		[LD_T_I64] = "integer (signed)",
		[LD_T_BOOL] = "bool",
		[LD_T_STR] = "string",
		[LD_T_HEX32] = "string (8 hex digits)",
		[LD_T_F0] = "number (whole)",
		[LD_T_F1] = "number (1 decimal)",
		[LD_T_F2] = "number (2 decimals)",
		[LD_T_F3] = "number (3 decimals)",
		[LD_T_F4] = "number (4 decimals)",
		[LD_T_F5] = "number (5 decimals)",
		[LD_T_F6] = "number (6 decimals)",
		[LD_T_F9] = "number (9 decimals)",
		[LD_T_HIST] = "histogram string",
		[LD_T_PAIR] = "[integer, integer]",
		[LD_T_NONE] = "",
	};
	return words[t];
}

static const char *unit_words(const char *unit)
{
	static const char *const words[][2] = {
		{ "none", "" },
		{ "core_cycles", "core cycles" },
		{ "mib", "MiB" },
		{ "hz", "Hz" },
		{ "insns", "instructions" },
		{ "ppm_h", "ppm/h" },
		{ "cycles_h", "cycles/h" },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(unit, words[i][0]))
			return words[i][1];
	return unit;
}

/* Text for a table cell: a '|' would end it. */
static void cell(FILE *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', o);
		fputc(*s, o);
	}
}

static void row(FILE *o, const char *path, const char *type, const char *unit, const struct ld_member *m, int record_by,
		const char *prefix)
{
	fprintf(o, "| `%s` | %s | %s | %s", path, type, unit, how_text[m->how]);
	if (m->by != LD_ALL && m->by != record_by)
		fprintf(o, " (%s)", m->by == LD_IMAGE ? "image" : "tickprobe os");
	fputs(" | ", o);
	if (prefix)
		fprintf(o, "%s: ", prefix);
	cell(o, m->doc);
	fputs(" |\n", o);
}

static void rows(FILE *o, const struct ld_shape *s, const char *path, int record_by, bool columns);

/* One member's row, and those of what it holds.  columns: a member of a
 * shape written as COLUMNS, a list of its values. */
static void member_rows(FILE *o, const struct ld_member *m, size_t index, const char *path, int record_by, bool columns)
{
	char p[160], type[80];
	const struct ld_shape *c = m->child;

	if (m->kind == LD_ITEM) {
		snprintf(p, sizeof p, "%s[%zu]", path, index);
		row(o, p, type_words(m->type), unit_words(m->unit), m, record_by, m->key);
		return;
	}
	snprintf(p, sizeof p, m->kind == LD_SUFFIXED ? "%sNAME%s" : "%s%s", path, m->key);
	switch (m->kind) {
	case LD_OBJECT:
		row(o, p, c->kind == LD_TUPLE ? "array (positional)" : "object", "", m, record_by, NULL);
		strcat(p, c->kind == LD_TUPLE ? "" : ".");
		rows(o, c, p, record_by, false);
		return;
	case LD_LIST_OF:
		row(o, p, c->kind == LD_TUPLE ? "array of arrays" : "array of objects", "", m, record_by, NULL);
		strcat(p, c->kind == LD_TUPLE ? "[]" : "[].");
		rows(o, c, p, record_by, false);
		return;
	case LD_COLUMNS:
		row(o, p, "object of columns", "", m, record_by, NULL);
		strcat(p, ".");
		rows(o, c, p, record_by, true);
		return;
	case LD_LIST:
	case LD_SUFFIXED: snprintf(type, sizeof type, "array of %s", type_words(m->type)); break;
	case LD_MAP: snprintf(type, sizeof type, "object: name to %s", type_words(m->type)); break;
	default: snprintf(type, sizeof type, columns ? "column of %s" : "%s", type_words(m->type)); break;
	}
	row(o, p, type, unit_words(m->unit), m, record_by, NULL);
}

static void rows(FILE *o, const struct ld_shape *s, const char *path, int record_by, bool columns)
{
	for (size_t i = 0; i < s->n; i++)
		member_rows(o, &s->members[i], i, path, record_by, columns);
}

static void table(FILE *o, const struct ld_shape *r)
{
	fprintf(o, "| member | type | unit | written | meaning |\n|---|---|---|---|---|\n");
	rows(o, r, "", r->by, false);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = malloc((size_t)n + 1))) {
		s[fread(s, 1, (size_t)n, f)] = 0;
	}
	fclose(f);
	return s;
}

/* The file with each record's table made afresh between its markers. */
static int docs(const char *path)
{
	char *text = slurp(path), *at;
	int bad = 0;

	if (!text) {
		fprintf(stderr, "mkschema: cannot read %s\n", path);
		return 1;
	}
	for (size_t i = 0; i < ld_n_records; i++) {
		char open[80], close[80];
		snprintf(open, sizeof open, "\n<!-- schema: %s -->\n", ld_records[i]->name);
		snprintf(close, sizeof close, "\n<!-- /schema: %s -->\n", ld_records[i]->name);
		if (!strstr(text, open) || !strstr(text, close)) {
			fprintf(stderr,
				"mkschema: %s has no table of record %s: put the lines <!-- schema: %s --> and "
				"<!-- /schema: %s --> where it belongs\n",
				path, ld_records[i]->name, ld_records[i]->name, ld_records[i]->name);
			bad = 1;
		}
	}
	for (at = text; !bad && *at;) {
		/* A marker is a line of its own: one named in the text is not. */
		char *open = strstr(at, "\n<!-- schema: "), *name_end, *close;
		char name[64], end[96];
		const struct ld_shape *r;
		if (!open) {
			fputs(at, stdout);
			break;
		}
		open++;
		name_end = strstr(open, " -->");
		snprintf(name, sizeof name, "%.*s", name_end ? (int)(name_end - open - 13) : 0, open + 13);
		snprintf(end, sizeof end, "\n<!-- /schema: %s -->", name);
		close = strstr(open, end);
		if (close)
			close++;
		if (!(r = ld_record(name)) || !close) {
			fprintf(stderr, "mkschema: %s: %s is no record of the schema, or has no end marker\n", path,
				name);
			bad = 1;
			break;
		}
		fwrite(at, 1, (size_t)(name_end + 4 - at), stdout);
		fputc('\n', stdout);
		table(stdout, r);
		at = close;
	}
	free(text);
	return bad;
}

/* ---- tests/lib/log_schema.json ------------------------------------------------------ */

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void json_shape(const struct ld_shape *s, int last)
{
	printf("  \"%s\": {\"kind\": \"%s\", \"by\": \"%s\", \"members\": [\n", s->name,
	       s->kind == LD_RECORD  ? "record"
	       : s->kind == LD_TUPLE ? "tuple"
				     : "shape",
	       by_code[s->by]);
	for (size_t i = 0; i < s->n; i++) {
		const struct ld_member *m = &s->members[i];
		printf("    {\"key\": ");
		json_string(m->key);
		printf(", \"kind\": \"%s\", \"type\": \"%s\", \"shape\": ", kind_code[m->kind], type_code[m->type]);
		if (m->child)
			json_string(m->child->name);
		else
			printf("null");
		printf(", \"unit\": \"%s\", \"how\": \"%s\", \"by\": \"%s\"}%s\n", m->unit, how_code[m->how],
		       by_code[m->by], i + 1 < s->n ? "," : "");
	}
	printf("  ]}%s\n", last ? "" : ",");
}

/* Every shape a record reaches, once, children before the shapes that hold them. */
static void reach(const struct ld_shape *s, const struct ld_shape **seen, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		if (seen[i] == s)
			return;
	for (size_t i = 0; i < s->n; i++)
		if (s->members[i].child)
			reach(s->members[i].child, seen, n);
	seen[(*n)++] = s;
}

static int json(void)
{
	static const struct ld_shape *all[512];
	size_t n = 0;

	for (size_t i = 0; i < ld_n_records; i++)
		reach(ld_records[i], all, &n);
	printf("{\"schema\": 2, \"made_by\": \"make schema, from probe/log_schema.def\",\n");
	printf(" \"envelope\": [\"type\", \"seq\", \"crc\"],\n \"records\": [");
	for (size_t i = 0; i < ld_n_records; i++)
		printf("\"%s\"%s", ld_records[i]->name, i + 1 < ld_n_records ? ", " : "],\n");
	printf(" \"shapes\": {\n");
	for (size_t i = 0; i < n; i++)
		json_shape(all[i], i + 1 == n);
	printf(" }\n}\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "docs"))
		return docs(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "json"))
		return json();
	fprintf(stderr, "usage: mkschema docs FILE | mkschema json\n");
	return 2;
}
