/* hosts_list.c - the hosts of --hosts and --hosts-file. */
#include "hosts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "options.h"

#define LINE_MAX_BYTES (PATH_MAX + 512)

/* What --hosts-file may be (infile.h; rebench(1), FILES): read once, so
 * a pipe too; 1 MiB, lines that fit the reader's buffer (a longer one is
 * an error, never two entries). */
static const struct infile_limit hosts_file_limit = {
	.bytes = 1 << 20, .line = LINE_MAX_BYTES - 2, .stream = true,
};

static int bad(const char *where, unsigned line, const char *entry,
	       const char *why)
{
	if (line)
		fprintf(stderr, "rebench: %s line %u: '%s': %s\n", where, line,
			entry, why);
	else
		fprintf(stderr, "rebench: %s: '%s': %s\n", where, entry, why);
	return -EINVAL;
}

/* "[user@]host[:port]": a name ssh can take, nothing else. */
static int parse_entry(const char *where, unsigned line, const char *entry,
		       struct host *h)
{
	const char *at = strchr(entry, '@'), *host = at ? at + 1 : entry;
	const char *colon = strrchr(host, ':'), *p;
	size_t hostlen = colon ? (size_t)(colon - host) : strlen(host);

	memset(h, 0, sizeof(*h));
	h->line = line;
	if (strlen(entry) >= sizeof(h->name))
		return bad(where, line, entry, "longer than 255 characters");
	if (at == entry || (at && strchr(at + 1, '@')))
		return bad(where, line, entry, "give a host as [user@]host[:port], one @ at most and a user before it");
	if (!hostlen)
		return bad(where, line, entry, "no host name: give [user@]host[:port]");
	for (p = entry; *p; p++)
		if (isspace((unsigned char)*p) || *p == '\'' || *p == '"' ||
		    *p == '\\' || *p == ',' || (*p == '-' && p == entry))
			return bad(where, line, entry, "a host name has no spaces, quotes, backslashes or commas and does not start with '-'; give [user@]host[:port]");
	if (colon) {
		for (p = colon + 1; *p; p++)
			if (!isdigit((unsigned char)*p))
				break;
		if (p == colon + 1 || *p || atoi(colon + 1) < 1 ||
		    atoi(colon + 1) > 65535)
			return bad(where, line, entry, "the port after ':' is a number from 1 to 65535");
		snprintf(h->port, sizeof(h->port), "%s", colon + 1);
	}
	snprintf(h->name, sizeof(h->name), "%s", entry);
	snprintf(h->dest, sizeof(h->dest), "%.*s",
		 (int)(colon ? (size_t)(colon - entry) : strlen(entry)), entry);
	return 0;
}

static int add(struct host_list *l, const char *where, unsigned line,
	       const char *entry, const char *target)
{
	struct host h;
	size_t i;

	if (parse_entry(where, line, entry, &h))
		return -EINVAL;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->h[i].name, h.name)) {
			char why[320];

			snprintf(why, sizeof(why), "given twice (%s%u): every host runs the workloads once; drop one",
				 l->h[i].line ? "line " : "entry ",
				 l->h[i].line ? l->h[i].line : (unsigned)i + 1);
			return bad(where, line, entry, why);
		}
	if (l->n == HOSTS_MAX)
		return bad(where, line, entry, "more than 256 hosts; run them in groups");
	if (target && strlen(target) >= sizeof(h.target))
		return bad(where, line, target, "a TARGET longer than PATH_MAX");
	if (target)
		snprintf(h.target, sizeof(h.target), "%s", target);
	l->h[l->n++] = h;
	return 0;
}

static int from_list(const char *text, struct host_list *l)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (!*text || text[strspn(text, ", ")] == '\0')
		ret = bad("--hosts", 0, text, "no host: give host1,host2,... ([user@]host[:port])");
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		for (end = tok + strlen(tok); end > tok && isspace((unsigned char)end[-1]);)
			*--end = '\0';
		if (!*tok)
			continue;
		ret = add(l, "--hosts", 0, tok, NULL);
	}
	free(copy);
	return ret;
}

static int from_file(const char *path, struct host_list *l)
{
	char line[LINE_MAX_BYTES], *w[4], where[PATH_MAX + 16], why[256];
	FILE *f = infile_open(path, &hosts_file_limit, why, sizeof(why));
	unsigned lineno = 0;
	int n, ret = 0;

	if (!f) {
		fprintf(stderr, "rebench: --hosts-file %s: cannot read it: %s\n",
			path, why);
		return -EINVAL;
	}
	snprintf(where, sizeof(where), "--hosts-file %s", path);
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		n = options_split_line(line, w, 4);
		if (n == 0)
			continue;
		if (n < 0 || n > 2) {
			ret = bad(where, lineno, n > 0 ? w[0] : line,
				  "a line is \"[user@]host[:port] [TARGET]\" ('#' starts a comment)");
			break;
		}
		ret = add(l, where, lineno, w[0], n == 2 ? w[1] : NULL);
	}
	if (!ret && ferror(f)) {
		fprintf(stderr, "rebench: %s: cannot read it%s%.0u: %s\n",
			where, lineno ? " after line " : "", lineno,
			infile_strerror(errno, &hosts_file_limit, why,
					sizeof(why)));
		ret = -EINVAL;
	}
	fclose(f);
	if (!ret && !l->n)
		ret = bad("--hosts-file", 0, path, "no host in it: one \"[user@]host[:port] [TARGET]\" per line");
	return ret;
}

int hosts_parse(const struct run_opts *run, struct host_list *list)
{
	int ret;

	memset(list, 0, sizeof(*list));
	if (run->hosts && run->hosts_file) {
		fprintf(stderr, "rebench: --hosts and --hosts-file both name the hosts; give one\n");
		return -EINVAL;
	}
	list->h = calloc(HOSTS_MAX, sizeof(*list->h));
	if (!list->h)
		return -ENOMEM;
	ret = run->hosts ? from_list(run->hosts, list) :
			   from_file(run->hosts_file, list);
	if (ret)
		hosts_free(list);
	return ret;
}

void hosts_free(struct host_list *list)
{
	free(list->h);
	memset(list, 0, sizeof(*list));
}
