/* hosts_list.c - the hosts of --hosts and --hosts-file. */
#include "hosts/hosts.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/infile.h"
#include "core/options.h"

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

/* ASCII by hand: no locale decides what reaches ssh. */
static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool name_char(char c)
{
	return alnum(c) || c == '.' || c == '-' || c == '_';
}

static bool v6_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F') || c == ':' || c == '.';
}

/* "'$' is not ..." or "0x0a is not ...", for what a name cannot hold */
static int bad_char(const char *where, unsigned line, const char *entry,
		    char c, const char *what)
{
	char why[320], shown[8];

	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		snprintf(shown, sizeof(shown), "0x%02x", (unsigned char)c);
	else
		snprintf(shown, sizeof(shown), "'%c'", c);
	snprintf(why, sizeof(why), "%s %s; give [user@]host[:port]", shown, what);
	return bad(where, line, entry, why);
}

/* "[user@]host[:port]": a user of letters, digits, '.', '_', '-'; a host
 * name of letters, digits, '.', '-', '_', or an IPv6 address in brackets.
 * Nothing else reaches ssh: no shell or ssh % token character
 * ($ ` ; | & > % ...), which a ProxyCommand's %h would pass on, and no
 * leading '-', which ssh would take as an option. */
static int parse_entry(const char *where, unsigned line, const char *entry,
		       struct host *h)
{
	const char *at = strchr(entry, '@'), *host = at ? at + 1 : entry;
	const char *addr = host, *port = NULL, *p;
	size_t addrlen;

	memset(h, 0, sizeof(*h));
	h->line = line;
	if (strlen(entry) >= sizeof(h->name))
		return bad(where, line, entry, "longer than 255 characters");
	if (at == entry || (at && strchr(at + 1, '@')))
		return bad(where, line, entry, "give a host as [user@]host[:port], one @ at most and a user before it");
	if (*entry == '-' || *host == '-')
		return bad(where, line, entry, "starts with '-', which ssh would take as an option; give [user@]host[:port]");
	for (p = entry; at && p < at; p++)
		if (!name_char(*p))
			return bad_char(where, line, entry, *p,
					"is not in a user name (letters, digits, '.', '_', '-')");
	if (*host == '[') {
		const char *close = strchr(host, ']');

		if (!close || close == host + 1)
			return bad(where, line, entry, "an IPv6 address is written in brackets: [fe80::1] or [fe80::1]:2222");
		for (p = host + 1; p < close; p++)
			if (!v6_char(*p))
				return bad_char(where, line, entry, *p,
						"is not in an IPv6 address (hex digits, ':', '.')");
		if (close[1] && close[1] != ':')
			return bad(where, line, entry, "after an IPv6 address in brackets only ':port' may follow");
		addr = host + 1;
		addrlen = (size_t)(close - addr);
		port = close[1] ? close + 2 : NULL;
	} else {
		const char *colon = strchr(host, ':');

		if (colon && strchr(colon + 1, ':'))
			return bad(where, line, entry, "an IPv6 address is written in brackets: [fe80::1] or [fe80::1]:2222");
		addrlen = colon ? (size_t)(colon - host) : strlen(host);
		if (!addrlen)
			return bad(where, line, entry, "no host name: give [user@]host[:port]");
		for (p = host; p < host + addrlen; p++)
			if (!name_char(*p))
				return bad_char(where, line, entry, *p,
						"is not in a host name (letters, digits, '.', '-', '_'; an IPv6 address in brackets)");
		port = colon ? colon + 1 : NULL;
	}
	if (port) {
		for (p = port; *p >= '0' && *p <= '9'; p++)
			;
		if (p == port || *p || p - port > 5 || atoi(port) < 1 ||
		    atoi(port) > 65535)
			return bad(where, line, entry, "the port after ':' is a number from 1 to 65535");
		snprintf(h->port, sizeof(h->port), "%s", port);
	}
	snprintf(h->name, sizeof(h->name), "%s", entry);
	snprintf(h->dest, sizeof(h->dest), "%.*s%.*s", (int)(at ? at + 1 - entry : 0),
		 entry, (int)addrlen, addr);
	return 0;
}

int hosts_target_check(const char *target, char *why, size_t len)
{
	const char *p;

	if (!*target) {
		snprintf(why, len, "an empty TARGET; give the device or file each host measures");
		return -EINVAL;
	}
	for (p = target; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(why, len, "the TARGET holds a control character (0x%02x at byte %zu): the hosts would report it in their documents and lines; give a path without one (a symbolic link to it)",
				 (unsigned char)*p, (size_t)(p - target) + 1);
			return -EINVAL;
		}
	return 0;
}

size_t hosts_sent_count(const struct host_list *l)
{
	return l->nsent ? l->nsent : 1;
}

const char *hosts_sent_target(const struct host_list *l, size_t i, size_t k)
{
	if (l->h[i].target[0])
		return l->h[i].target;
	if (l->target)
		return l->target;
	return k < l->nsent ? l->sent[k] : "-";
}

static int add(struct host_list *l, const char *where, unsigned line,
	       const char *entry, const char *target)
{
	struct host h;
	char why[320];
	size_t i;

	if (parse_entry(where, line, entry, &h))
		return -EINVAL;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->h[i].name, h.name)) {
			snprintf(why, sizeof(why), "given twice (%s%u): every host runs the workloads once; drop one",
				 l->h[i].line ? "line " : "entry ",
				 l->h[i].line ? l->h[i].line : (unsigned)i + 1);
			return bad(where, line, entry, why);
		}
	if (l->n == HOSTS_MAX)
		return bad(where, line, entry, "more than 256 hosts; run them in groups");
	if (target && strlen(target) >= sizeof(h.target))
		return bad(where, line, target, "a TARGET longer than PATH_MAX");
	if (target && hosts_target_check(target, why, sizeof(why)))
		return bad(where, line, entry, why);
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
	size_t i;

	for (i = 0; i < list->nsent; i++)
		free(list->sent[i]);
	free(list->sent);
	free(list->h);
	memset(list, 0, sizeof(*list));
}
