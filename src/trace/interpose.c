/* interpose.c - see interpose.h.  Moved out of record.c so that --record,
 * --delay and --emulate start a command the same way.
 *
 * Refusals (nothing run; interpose_run() returns 2): COMMAND not found,
 * not executable, statically linked, set-user-ID; the interposer not
 * found or at a path LD_PRELOAD cannot hold; too many globs; the log not
 * created, or not held (record_log.h).
 */
#include "trace/interpose.h"

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

#include "core/outpath.h"
#include "core/plan.h"
#include "trace/record_log.h"
#include "core/signals.h"
#include "trace/trace_log.h"

#ifndef REBENCH_LIBDIR
#define REBENCH_LIBDIR "/usr/local/lib/rebench"
#endif

#define RECORD_LIB "librebench-record.so"

/* What one run is: the mode names every message. */
struct job {
	const char *mode;
	char **cmd;
	const char *log;
	const char *const *globs;
	unsigned nglobs;
	const struct delay_set *d;	/* NULL: no delay */
	const struct delay_calib *c;
	struct record_log *lg;		/* the log held, with one */
};

/* ------------------------------------------------------------ the command */

/* The interposer: $REBENCH_RECORD_LIB, else beside the binary (a build
 * tree), else ../lib/rebench/ from it (an installed tree), else the
 * LIBDIR it was built for. */
static int find_lib(const char *mode, char *out, size_t len)
{
	const char *env = getenv("REBENCH_RECORD_LIB");
	char exe[PATH_MAX], tried[3 * PATH_MAX + 64] = "";
	ssize_t n;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		if (!access(out, R_OK))
			return 0;
		fprintf(stderr, "rebench: %s: REBENCH_RECORD_LIB=%s: %s\n",
			mode, env, strerror(errno));
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
	fprintf(stderr, "rebench: %s: cannot find the interposer %s (looked at %s%s): run make in the source tree or make install, or set REBENCH_RECORD_LIB\n",
		mode, RECORD_LIB, tried, out);
	return -ENOENT;
}

static bool executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* COMMAND as execvp would find it: 0, or -errno after a message. */
int interpose_find_command(const char *mode, const char *name, char *out,
			   size_t len)
{
	const char *path = getenv("PATH"), *p, *colon;
	bool seen = false;
	size_t n;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		if (executable_file(out))
			return 0;
		fprintf(stderr, "rebench: %s: cannot run %s: %s\n", mode, name,
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
	fprintf(stderr, "rebench: %s: cannot run %s: %s in PATH (%s)\n",
		mode, name, seen ? "no executable file of that name" : "not found",
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
static int check_dynamic(const char *mode, const char *path,
			 const char *name, int depth)
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
		fprintf(stderr, "rebench: %s: %s is set-user-ID or set-group-ID: the dynamic loader ignores LD_PRELOAD for it, so the interposer cannot see its calls; run a copy without that bit, or run as root\n",
			mode, path);
		return -ENOEXEC;
	}
	n = pread(fd, line, sizeof(line) - 1, 0);
	if (n > 2 && line[0] == '#' && line[1] == '!') {
		close(fd);
		line[n] = '\0';
		if (depth || sscanf(line + 2, " %4095[^ \t\n]", interp) != 1)
			return 0;
		return check_dynamic(mode, interp, path, depth + 1);
	}
	ret = elf_has_interp(fd);
	close(fd);
	if (ret)
		return 0;
	if (depth)
		fprintf(stderr, "rebench: %s: the interpreter %s of %s is statically linked (its ELF header has no PT_INTERP: no dynamic loader), so an LD_PRELOAD interposer cannot see its calls; nothing was run\n",
			mode, path, name);
	else
		fprintf(stderr, "rebench: %s: %s is statically linked (its ELF header has no PT_INTERP: no dynamic loader), so an LD_PRELOAD interposer cannot see its calls; use a dynamically linked build (or, to record, strace -f); nothing was run\n",
			mode, path);
	return -ENOEXEC;
}

/* ------------------------------------------------------------ the log */



static bool delaying(const struct job *j)
{
	return j->d && delay_any(j->d);
}

/* The log's first lines; trace_log.h.  "# delay:" says what the durations
 * of the delayed calls include, in delay_format()'s form and with the
 * calibration the waits used; the status line last (record_log.h), and
 * the log held from here to the end of the run. */
static int write_header(const struct job *j)
{
	char text[DELAY_TEXT_MAX], calib[DELAY_TEXT_MAX];
	struct timespec now;
	unsigned i;
	FILE *f;

	f = outpath_open(j->mode, j->log);
	if (!f)
		return -EIO;
	clock_gettime(CLOCK_REALTIME, &now);
	trace_write_head(f, j->cmd, &now);
	for (i = 0; i < j->nglobs; i++) {
		fputs("# record-path: ", f);
		trace_put_word(f, j->globs[i]);
		fputc('\n', f);
	}
	if (delaying(j)) {
		delay_format(j->d, text, sizeof(text));
		delay_calib_format(j->c, calib, sizeof(calib));
		fprintf(f, "# delay: %s (waited after each call and part of its DURATION; calibration clock,spin_min,sleep_min,sleep_over,spin_below ns: %s)\n",
			text, calib);
	}
	if (record_log_hold(j->lg, j->mode, j->log, f)) {
		struct stat st;

		if (!fstat(fileno(f), &st))
			outpath_unlink_same(j->log, st.st_dev, st.st_ino);
		fclose(f);
		return -EIO;
	}
	/* a header cut short is no log: it goes, and the message says so */
	if (outpath_close_removing(j->mode, j->log, f)) {
		record_log_close(j->lg);
		return -EIO;
	}
	return 0;
}

/* ------------------------------------------------------------ running */

static void set_env(const struct job *j, const char *lib, const char *log,
		    uint64_t start)
{
	char num[32], globs[INTERPOSE_MAX_GLOBS * 256 + 1] = "", *preload;
	char text[DELAY_TEXT_MAX];
	const char *old = getenv("LD_PRELOAD");
	size_t n = 0;
	unsigned i;

	for (i = 0; i < j->nglobs; i++)
		n += (size_t)snprintf(globs + n, n < sizeof(globs) ? sizeof(globs) - n : 0,
				      "%s%s", i ? "\n" : "", j->globs[i]);
	if (log) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)start);
		setenv(TRACE_ENV_LOG, log, 1);
		setenv(TRACE_ENV_START, num, 1);
		record_log_child(j->lg);
	} else {
		unsetenv(TRACE_ENV_LOG);
		unsetenv(TRACE_ENV_START);
		unsetenv(TRACE_ENV_LOG_ID);
		unsetenv(TRACE_ENV_COUNTS);
		unsetenv(TRACE_ENV_STDERR);
	}
	if (j->nglobs)
		setenv(TRACE_ENV_PATHS, globs, 1);
	else
		unsetenv(TRACE_ENV_PATHS);
	if (delaying(j)) {
		delay_format(j->d, text, sizeof(text));
		setenv(TRACE_ENV_DELAY, text, 1);
		delay_calib_format(j->c, text, sizeof(text));
		setenv(TRACE_ENV_DELAY_CALIB, text, 1);
	} else {
		unsetenv(TRACE_ENV_DELAY);
		unsetenv(TRACE_ENV_DELAY_CALIB);
	}
	if (old && *old && asprintf(&preload, "%s:%s", lib, old) > 0)
		setenv("LD_PRELOAD", preload, 1);
	else
		setenv("LD_PRELOAD", lib, 1);
}

pid_t interpose_start(const char *mode, const char *path, char **argv,
		      void (*setup)(const void *arg), const void *arg)
{
	int pipefd[2], err = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		fprintf(stderr, "rebench: %s: cannot start %s: %s\n", mode,
			path, strerror(err));
		return -err;
	}
	if (!pid) {
		close(pipefd[0]);
		signals_restore_for_child();
		if (setup)
			setup(arg);
		execv(path, argv);
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
	if (n == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		fprintf(stderr, "rebench: %s: cannot run %s: %s%s\n", mode,
			path, strerror(err),
			err == ENOEXEC ? " (not a program the kernel can run; a script needs a #! line)" : "");
		return -err;
	}
	return pid;
}

/* What the child sets before its exec: the interposer's environment. */
struct child_env {
	const struct job *j;
	const char *lib, *log;
	uint64_t start;
};

static void child_setup(const void *arg)
{
	const struct child_env *e = arg;

	set_env(e->j, e->lib, e->log, e->start);
}

/* Start and wait: COMMAND's status as the shell gives it, or -errno after
 * a message when it could not start.  SIGTERM and SIGHUP sent to rebench
 * are passed on; SIGINT from the terminal reaches COMMAND itself and
 * rebench waits for it. */
static int run(const struct job *j, const char *path, const char *lib,
	       const char *log)
{
	struct child_env e = { j, lib, log, delay_now_ns() };
	int status, ret;
	pid_t pid;

	pid = interpose_start(j->mode, path, j->cmd, child_setup, &e);
	if (pid < 0)
		return (int)pid;
	/* a SIGTERM that came while COMMAND started is passed on too (it was
	 * lost when it came just before the wait: COMMAND ran on) */
	ret = signals_wait_forwarding(pid, &status);
	if (ret)
		return ret;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "rebench: %s: %s was ended by signal %d (%s)\n",
			j->mode, j->cmd[0], WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* The interposer into lib and COMMAND into path (PATH_MAX each), both
 * usable: 0, or -errno after a message. */
static int check(const char *mode, const char *name, char *lib, char *path)
{
	int ret;

	ret = find_lib(mode, lib, PATH_MAX);
	if (ret)
		return ret;
	if (strpbrk(lib, " :")) {
		fprintf(stderr, "rebench: %s: the interposer's path %s has a space or a colon, which LD_PRELOAD cannot hold; install it elsewhere or set REBENCH_RECORD_LIB\n",
			mode, lib);
		return -EINVAL;
	}
	ret = interpose_find_command(mode, name, path, PATH_MAX);
	if (!ret)
		ret = check_dynamic(mode, path, path, 0);
	return ret;
}

int interpose_check(const char *mode, char **argv)
{
	char lib[PATH_MAX], path[PATH_MAX];

	if (!argv || !argv[0]) {
		fprintf(stderr, "rebench: %s: no COMMAND to run: write it after --\n",
			mode);
		return -EINVAL;
	}
	return check(mode, argv[0], lib, path);
}

int interpose_exec(const char *mode, char **argv, const char *log,
		   const char *const *globs, unsigned nglobs,
		   const struct delay_set *d, const struct delay_calib *c,
		   int *log_fd)
{
	struct record_log lg = { .fd = -1, .counts_fd = -1 };
	const struct job j = { mode, argv, log, globs, nglobs, d, c, &lg };
	char lib[PATH_MAX], path[PATH_MAX], *abs_log = NULL;
	int ret;

	if (log_fd)
		*log_fd = -1;
	if (!argv || !argv[0]) {
		fprintf(stderr, "rebench: %s: no COMMAND to run: write it after --\n",
			mode);
		return -EINVAL;
	}
	if (nglobs > INTERPOSE_MAX_GLOBS) {
		fprintf(stderr, "rebench: %s: %u --record-path patterns: at most %d\n",
			mode, nglobs, INTERPOSE_MAX_GLOBS);
		return -EINVAL;
	}
	if (delaying(&j) && !c) {
		fprintf(stderr, "rebench: %s: internal error: delays without a calibration\n",
			mode);
		return -EINVAL;
	}
	ret = check(mode, argv[0], lib, path);
	if (ret)
		return ret;
	if (log) {
		if (write_header(&j))	/* it removed what it made */
			return -EIO;
		abs_log = realpath(log, NULL);
		if (!abs_log) {
			ret = -errno;
			fprintf(stderr, "rebench: %s %s: %s\n", mode, log,
				strerror(-ret));
			record_log_close(&lg);
			return ret;
		}
	}
	ret = run(&j, path, lib, abs_log);
	if (ret < 0 && abs_log)	/* nothing ran: the header alone goes */
		outpath_unlink_same(abs_log, lg.dev, lg.ino);
	if (ret >= 0 && log) {
		ret = record_log_finish(&lg, ret);
		if (log_fd)
			*log_fd = record_log_reader(&lg);
	}
	record_log_close(&lg);
	free(abs_log);
	return ret;
}

int interpose_run(char **argv, const char *log, const char *const *globs,
		  unsigned nglobs, const struct delay_set *d,
		  const struct delay_calib *c)
{
	int ret = interpose_exec(log ? "--record" : "--delay", argv, log,
				 globs, nglobs, d, c, NULL);

	return ret < 0 ? EXIT_PREP_FAILED : ret;
}
