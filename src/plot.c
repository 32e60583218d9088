/* plot.c - see plot.h. */
#include "plot.h"

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

int plot_render(const char *script, const char *const *args, int nargs,
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
		execvp("gnuplot", (char *const *)argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &status, 0) < 0)
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
