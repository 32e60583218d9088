/* record.c - see record.h.
 *
 * Exit statuses: 1 for bad arguments and a log path that breaks the rule
 * of outpath.h (nothing run); 2 when COMMAND cannot be recorded (not
 * found, not executable, statically linked, setuid, the interposer not
 * found, the log not created; nothing run); otherwise COMMAND's own
 * status, 128+N when a signal N ended it.
 */
#include "record.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outpath.h"
#include "plan.h"
#include "signals.h"
#include "trace_log.h"
#include "trace_stats.h"

#ifndef REBENCH_LIBDIR
#define REBENCH_LIBDIR "/usr/local/lib/rebench"
#endif

#define RECORD_LIB "librebench-record.so"
#define MAX_GLOBS 16		/* as the interposer's */

struct record_args {
	const char *log;	/* --record */
	const char *stats;	/* --trace-stats */
	const char *globs[MAX_GLOBS];
	int nglobs;
	enum trace_stats_format fmt;
	bool fmt_given;
	char **cmd;		/* NULL-terminated, from argv */
};

static const char usage[] =
	"rebench --record LOG [--record-path GLOB]... [-n | --json] -- COMMAND [ARGS...]\n"
	"rebench --trace-stats LOG [-n | --json]\n";

static const char help[] =
	"  --record LOG         run COMMAND, logging its calls on files, block devices\n"
	"                       and directories to LOG; the statistics on stderr\n"
	"  --record-path GLOB   only the files whose path matches GLOB (up to 16)\n"
	"  --trace-stats LOG    what LOG holds, per operation type and per file\n"
	"  -n, --json           the statistics as lines of fields, or as JSON\n"
	"See rebench(1), APPLICATION I/O.\n";

bool record_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--record") ||
		    !strncmp(argv[i], "--record=", 9) ||
		    !strcmp(argv[i], "--trace-stats") ||
		    !strncmp(argv[i], "--trace-stats=", 14))
			return true;
	}
	return false;
}

/* --NAME VALUE or --NAME=VALUE at argv[*i]: the value, or NULL when the
 * word is another option. */
static const char *value_of(int argc, char **argv, int *i, const char *name,
			    bool *missing)
{
	size_t n = strlen(name);
	const char *w = argv[*i];

	*missing = false;
	if (strncmp(w, name, n))
		return NULL;
	if (w[n] == '=')
		return w + n + 1;
	if (w[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static int bad(const char *fmt, const char *what)
{
	fprintf(stderr, "rebench: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\nusage:\n%s", usage);
	return -EINVAL;
}

static int set_once(const char **slot, const char *opt, const char *val)
{
	if (*slot)
		return bad("%s is given twice", opt);
	if (!*val)
		return bad("%s: the file name is empty", opt);
	*slot = val;
	return 0;
}

static int set_fmt(struct record_args *a, enum trace_stats_format fmt,
		   const char *opt)
{
	if (a->fmt_given && a->fmt != fmt)
		return bad("-n and --json are two formats: give one (%s)", opt);
	a->fmt = fmt;
	a->fmt_given = true;
	return 0;
}

/* 0, 1 after --help, or -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	const char *v;
	bool missing;
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--")) {
			a->cmd = argv + i + 1;
			break;
		}
		if ((v = value_of(argc, argv, &i, "--record", &missing))) {
			if (set_once(&a->log, "--record", v))
				return -EINVAL;
		} else if ((v = value_of(argc, argv, &i, "--trace-stats",
					 &missing))) {
			if (set_once(&a->stats, "--trace-stats", v))
				return -EINVAL;
		} else if ((v = value_of(argc, argv, &i, "--record-path",
					 &missing))) {
			if (a->nglobs == MAX_GLOBS)
				return bad("--record-path: at most 16 patterns%s", "");
			if (!*v || strchr(v, '\n'))
				return bad("--record-path '%s': a pattern is one line, not empty", v);
			a->globs[a->nglobs++] = v;
		} else if (missing) {
			return bad("%s needs a value", w);
		} else if (!strcmp(w, "-n") || !strcmp(w, "--silent")) {
			if (set_fmt(a, TSF_TERSE, w))
				return -EINVAL;
		} else if (!strcmp(w, "--json")) {
			if (set_fmt(a, TSF_JSON, w))
				return -EINVAL;
		} else if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
			printf("usage:\n%s\n%s", usage, help);
			return 1;
		} else if (w[0] == '-') {
			return bad("%s has no meaning with --record or --trace-stats, which take only --record-path (with --record), -n and --json before the command", w);
		} else {
			a->cmd = argv + i;	/* COMMAND without "--" */
			break;
		}
	}
	if (a->log && a->stats)
		return bad("--record and --trace-stats are two modes: give one%s", "");
	if (a->stats && a->nglobs)
		return bad("--record-path belongs to --record, not --trace-stats%s", "");
	if (a->stats && a->cmd)
		return bad("--trace-stats LOG runs nothing: '%s' has no meaning with it",
			   a->cmd[0] ? a->cmd[0] : "--");
	if (a->log && (!a->cmd || !a->cmd[0]))
		return bad("--record %s needs a COMMAND to run: rebench --record LOG -- COMMAND [ARGS...]",
			   a->log);
	return 0;
}

/* ------------------------------------------------------------ the command */

/* The interposer: $REBENCH_RECORD_LIB, else beside the binary (a build
 * tree), else ../lib/rebench/ from it (an installed tree), else the
 * LIBDIR it was built for. */
static int find_lib(char *out, size_t len)
{
	const char *env = getenv("REBENCH_RECORD_LIB");
	char exe[PATH_MAX], tried[3 * PATH_MAX + 64] = "";
	ssize_t n;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		if (!access(out, R_OK))
			return 0;
		fprintf(stderr, "rebench: --record: REBENCH_RECORD_LIB=%s: %s\n",
			env, strerror(errno));
		return -ENOENT;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(out, len, "%s/%s", dirname(exe), RECORD_LIB);
		if (!access(out, R_OK))
			return 0;
		snprintf(tried, sizeof(tried), "%s, ", out);
		if (snprintf(out, len, "%s/../lib/rebench/%s", exe,
			     RECORD_LIB) < (int)len && !access(out, R_OK))
			return 0;
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried),
			 "%s, ", out);
	}
	snprintf(out, len, "%s/%s", REBENCH_LIBDIR, RECORD_LIB);
	if (!access(out, R_OK))
		return 0;
	fprintf(stderr, "rebench: --record: cannot find the interposer %s (looked at %s%s): run make in the source tree or make install, or set REBENCH_RECORD_LIB\n",
		RECORD_LIB, tried, out);
	return -ENOENT;
}

static bool executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* COMMAND as execvp would find it: 0, or -errno after a message. */
static int find_command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *colon;
	bool seen = false;
	size_t n;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		if (executable_file(out))
			return 0;
		fprintf(stderr, "rebench: --record: cannot run %s: %s\n", name,
			access(name, F_OK) ? strerror(errno) :
			"not an executable file");
		return -ENOENT;
	}
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p = colon + 1) {
		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		if (n)
			snprintf(out, len, "%.*s/%s", (int)n, p, name);
		else
			snprintf(out, len, "%s", name);
		if (executable_file(out))
			return 0;
		if (!access(out, F_OK))
			seen = true;
		if (!colon)
			break;
	}
	fprintf(stderr, "rebench: --record: cannot run %s: %s in PATH (%s)\n",
		name, seen ? "no executable file of that name" : "not found",
		path);
	return -ENOENT;
}

/* Has the ELF file a PT_INTERP (a dynamic loader that honours
 * LD_PRELOAD)?  1 yes, 0 no, -1 not ELF or unreadable. */
static int elf_has_interp(int fd)
{
	unsigned char id[EI_NIDENT];
	Elf64_Ehdr e64;
	Elf32_Ehdr e32;
	uint64_t off, k, n, size;
	uint32_t type;

	if (pread(fd, id, sizeof(id), 0) != (ssize_t)sizeof(id) ||
	    memcmp(id, ELFMAG, SELFMAG))
		return -1;
	if (id[EI_CLASS] == ELFCLASS64) {
		if (pread(fd, &e64, sizeof(e64), 0) != (ssize_t)sizeof(e64))
			return -1;
		off = e64.e_phoff;
		n = e64.e_phnum;
		size = e64.e_phentsize;
	} else if (id[EI_CLASS] == ELFCLASS32) {
		if (pread(fd, &e32, sizeof(e32), 0) != (ssize_t)sizeof(e32))
			return -1;
		off = e32.e_phoff;
		n = e32.e_phnum;
		size = e32.e_phentsize;
	} else {
		return -1;
	}
	if (size < sizeof(uint32_t))
		return -1;
	for (k = 0; k < n; k++) {
		if (pread(fd, &type, sizeof(type), (off_t)(off + k * size)) !=
		    (ssize_t)sizeof(type))
			return -1;
		if (type == PT_INTERP)
			return 1;
	}
	return 0;
}

/* COMMAND (or the interpreter of its #! line) must be dynamically linked:
 * 0, or -ENOEXEC after a message. */
static int check_dynamic(const char *path, const char *name, int depth)
{
	char line[PATH_MAX + 3], interp[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* exec will say why */
	/* the loader's secure mode: the ids change at exec */
	if (!fstat(fd, &st) &&
	    (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
	     ((st.st_mode & S_ISGID) && st.st_gid != getegid()))) {
		close(fd);
		fprintf(stderr, "rebench: --record: %s is set-user-ID or set-group-ID: the dynamic loader ignores LD_PRELOAD for it, so its calls cannot be recorded; record a copy without that bit, or run as root\n",
			path);
		return -ENOEXEC;
	}
	n = pread(fd, line, sizeof(line) - 1, 0);
	if (n > 2 && line[0] == '#' && line[1] == '!') {
		close(fd);
		line[n] = '\0';
		if (depth || sscanf(line + 2, " %4095[^ \t\n]", interp) != 1)
			return 0;
		return check_dynamic(interp, path, depth + 1);
	}
	ret = elf_has_interp(fd);
	close(fd);
	if (ret)
		return 0;
	if (depth)
		fprintf(stderr, "rebench: --record: the interpreter %s of %s is statically linked (its ELF header has no PT_INTERP: no dynamic loader), so an LD_PRELOAD interposer cannot see its calls; nothing was run\n",
			path, name);
	else
		fprintf(stderr, "rebench: --record: %s is statically linked (its ELF header has no PT_INTERP: no dynamic loader), so an LD_PRELOAD interposer cannot see its calls; record a dynamically linked build, or use strace -f; nothing was run\n",
			path);
	return -ENOEXEC;
}

/* ------------------------------------------------------------ the log */

/* A word of the "# command:" line: quoted when it has to be, and no byte
 * that would end the line. */
static void put_word(FILE *f, const char *w)
{
	bool quote = !*w || strpbrk(w, " \t'\"\\$`*?[]{}()<>|&;#~");
	const unsigned char *p;

	if (quote)
		fputc('\'', f);
	for (p = (const unsigned char *)w; *p; p++) {
		if (*p < ' ' || *p == 0x7f)
			fprintf(f, "\\%03o", *p);
		else if (*p == '\'' && quote)
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	if (quote)
		fputc('\'', f);
}

static int write_header(const struct record_args *a)
{
	struct timespec now;
	char **w;
	FILE *f;
	int i;

	f = outpath_open("--record", a->log);
	if (!f)
		return -EIO;
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "%s%d\n# command:", TRACE_MAGIC, TRACE_FORMAT_VERSION);
	for (w = a->cmd; *w; w++) {
		fputc(' ', f);
		put_word(f, *w);
	}
	fprintf(f, "\n# start: %lld.%09ld (CLOCK_REALTIME at TIME 0)\n",
		(long long)now.tv_sec, now.tv_nsec);
	for (i = 0; i < a->nglobs; i++) {
		fputs("# record-path: ", f);
		put_word(f, a->globs[i]);
		fputc('\n', f);
	}
	return outpath_close("--record", a->log, f);
}

/* ------------------------------------------------------------ running */

static void set_env(const char *lib, const char *log, uint64_t start,
		    const struct record_args *a)
{
	char num[32], globs[MAX_GLOBS * 256 + 1] = "", *preload;
	const char *old = getenv("LD_PRELOAD");
	size_t n = 0;
	int i;

	snprintf(num, sizeof(num), "%llu", (unsigned long long)start);
	for (i = 0; i < a->nglobs; i++)
		n += (size_t)snprintf(globs + n, n < sizeof(globs) ? sizeof(globs) - n : 0,
				      "%s%s", i ? "\n" : "", a->globs[i]);
	setenv(TRACE_ENV_LOG, log, 1);
	setenv(TRACE_ENV_START, num, 1);
	if (a->nglobs)
		setenv(TRACE_ENV_PATHS, globs, 1);
	else
		unsetenv(TRACE_ENV_PATHS);
	if (old && *old && asprintf(&preload, "%s:%s", lib, old) > 0)
		setenv("LD_PRELOAD", preload, 1);
	else
		setenv("LD_PRELOAD", lib, 1);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Fork, exec and wait: COMMAND's status as the shell gives it, or -errno
 * after a message when it could not start.  SIGTERM and SIGHUP sent to
 * rebench are passed on; SIGINT from the terminal reaches COMMAND itself
 * and rebench waits for it. */
static int run(const char *path, const char *lib, const char *log,
	       const struct record_args *a)
{
	int pipefd[2], err = 0, status, sig, forwarded = 0;
	uint64_t start;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	start = monotonic_ns();
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		fprintf(stderr, "rebench: --record: cannot start %s: %s\n",
			path, strerror(err));
		return -err;
	}
	if (!pid) {
		close(pipefd[0]);
		signals_restore_for_child();
		set_env(lib, log, start, a);
		execv(path, a->cmd);
		err = errno;
		n = write(pipefd[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(pipefd[1]);
	do
		n = read(pipefd[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		sig = signals_stop_requested();
		if ((sig == SIGTERM || sig == SIGHUP) && !(forwarded & (1 << sig))) {
			kill(pid, sig);
			forwarded |= 1 << sig;
		}
	}
	if (n == (ssize_t)sizeof(err)) {
		fprintf(stderr, "rebench: --record: cannot run %s: %s%s\n", path,
			strerror(err),
			err == ENOEXEC ? " (not a program the kernel can run; a script needs a #! line)" : "");
		return -err;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "rebench: --record: %s was ended by signal %d (%s)\n",
			a->cmd[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

static int do_record(const struct record_args *a)
{
	char lib[PATH_MAX], path[PATH_MAX], err[PATH_MAX + 1200], *log;
	struct trace_stats st;
	int status;

	if (outpath_check("--record", a->log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (find_lib(lib, sizeof(lib)))
		return EXIT_PREP_FAILED;
	if (strpbrk(lib, " :")) {
		fprintf(stderr, "rebench: --record: the interposer's path %s has a space or a colon, which LD_PRELOAD cannot hold; install it elsewhere or set REBENCH_RECORD_LIB\n",
			lib);
		return EXIT_PREP_FAILED;
	}
	if (find_command(a->cmd[0], path, sizeof(path)) ||
	    check_dynamic(path, path, 0))
		return EXIT_PREP_FAILED;
	if (write_header(a)) {
		unlink(a->log);
		return EXIT_PREP_FAILED;
	}
	log = realpath(a->log, NULL);
	if (!log) {
		fprintf(stderr, "rebench: --record %s: %s\n", a->log,
			strerror(errno));
		return EXIT_PREP_FAILED;
	}
	status = run(path, lib, log, a);
	if (status < 0)
		unlink(log);	/* nothing ran: the header alone goes */
	free(log);
	if (status < 0)
		return EXIT_PREP_FAILED;
	/* the statistics go to stderr: stdout is COMMAND's */
	if (trace_stats_load(a->log, &st, err, sizeof(err))) {
		fprintf(stderr, "rebench: --record: %s\n", err);
		return status;
	}
	trace_stats_print(stderr, &st, a->fmt);
	trace_stats_free(&st);
	return status;
}

static int do_stats(const struct record_args *a)
{
	char err[PATH_MAX + 1200];
	struct trace_stats st;

	if (trace_stats_load(a->stats, &st, err, sizeof(err))) {
		fprintf(stderr, "rebench: --trace-stats: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	trace_stats_print(stdout, &st, a->fmt);
	trace_stats_free(&st);
	return outpath_finish_stdout() ? EXIT_OUTPUT_FAILED : EXIT_OK;
}

int record_main(int argc, char **argv)
{
	struct record_args a;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	return a.log ? do_record(&a) : do_stats(&a);
}
