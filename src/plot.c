/* plot.c - see plot.h. */
#include "plot.h"
#include "outpath.h"
#include "signals.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef REBENCH_DATADIR
#define REBENCH_DATADIR "/usr/local/share/rebench"
#endif

static void plots_dir(const char *script, char *dir, size_t len)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	const char *env = getenv("REBENCH_PLOTS");
	ssize_t n;

	if (env && *env) {
		snprintf(dir, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(path, sizeof(path), "%s/plots/%s", dirname(exe), script);
		if (!access(path, R_OK)) {
			snprintf(dir, len, "%.4000s/plots", exe);
			return;
		}
	}
	snprintf(dir, len, "%s/plots", REBENCH_DATADIR);
}

/* A new file beside out, with out's extension (gnuplot picks the
 * terminal by it): "DIR/.NAME.XXXXXX.png". */
static int temp_beside(const char *out, char *tmp, size_t len)
{
	char d[PATH_MAX], b[PATH_MAX];
	const char *ext;
	int fd;

	snprintf(d, sizeof(d), "%s", out);
	snprintf(b, sizeof(b), "%s", out);
	ext = strrchr(basename(b), '.');
	if (!ext)
		ext = "";
	snprintf(tmp, len, "%s/.%.200s.XXXXXX%s", dirname(d), basename(b), ext);
	fd = mkstemps(tmp, (int)strlen(ext));
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int run_gnuplot(const char *script, const char *const *args, int nargs,
		       const char *data_note);

int plot_render(const char *script, const char *const *args, int nargs,
		const char *data_note)
{
	const char *targs[12];
	char tmp[PATH_MAX + 300], err[PATH_MAX + 1200];
	int i, ret;

	if (nargs < 2 || nargs > 12)
		return -EINVAL;
	ret = temp_beside(args[1], tmp, sizeof(tmp));
	if (ret) {
		fprintf(stderr, "rebench: --plot %s: cannot create a file beside it: %s; %s\n",
			args[1], strerror(-ret), data_note);
		return ret;
	}
	for (i = 0; i < nargs; i++)
		targs[i] = i == 1 ? tmp : args[i];
	ret = run_gnuplot(script, targs, nargs, data_note);
	/* the name may have changed since the check: the rule again, then an
	 * atomic replace of the directory entry */
	if (!ret && (ret = outpath_check("--plot", args[1], err, sizeof(err))))
		fprintf(stderr, "rebench: %s\n", err);
	if (!ret && rename(tmp, args[1])) {
		ret = -errno;
		fprintf(stderr, "rebench: --plot %s: cannot put the picture there: %s\n",
			args[1], strerror(-ret));
	}
	if (ret)
		unlink(tmp);
	return ret;
}

static int run_gnuplot(const char *script, const char *const *args, int nargs,
		       const char *data_note)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	const char *argv[16];
	int i, status;
	pid_t pid;

	plots_dir(script, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, script);
	if (access(path, R_OK)) {
		fprintf(stderr, "rebench: --plot: cannot find the gnuplot script %s (set REBENCH_PLOTS to the plots/ folder); %s\n",
			path, data_note);
		return -ENOENT;
	}
	argv[0] = "gnuplot";
	argv[1] = "-c";
	argv[2] = path;
	for (i = 0; i < nargs && i < 12; i++)
		argv[3 + i] = args[i];
	argv[3 + i] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		signals_restore_for_child();
		execvp("gnuplot", (char *const *)argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "rebench: --plot: gnuplot is not installed (apt-get install gnuplot-nox); %s\n",
			data_note);
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "rebench: --plot: gnuplot failed on %s; %s\n", path,
			data_note);
		return -EIO;
	}
	return 0;
}
