/* plot.c - see plot.h. */
#include "report/plot.h"
#include "engines/engine.h"
#include "core/spec_names.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "core/rate.h"
#include "core/validate.h"
#include "report/report.h"
#include "report/version.h"
#include "report/summary.h"
#include "core/signals.h"
#include "core/sweep.h"
#include "core/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Is option name one of the sweep's axes? */
static bool swept(const struct sweep *sw, const char *name)
{
	size_t a;

	for (a = 0; sw && a < sw->naxes; a++)
		if (!strcmp(sw->axes[a].opt->name, name))
			return true;
	return false;
}

/* Append ", TEXT" (or TEXT to an empty buf). */
static void __attribute__((format(printf, 3, 4)))
add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, ", ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* A workload's settings that the sweep does not vary, the way fio users
 * name them: "read, rnd uniform, 4 KiB I/Os, stateful, QD 1". */
static void settings(const struct spec *s, const struct sweep *sw,
		     char *buf, size_t len)
{
	char t[256];

	buf[0] = '\0';
	if (!swept(sw, "operation")) {
		add(buf, len, "%s", spec_op_text(s, t, sizeof(t)));
		if (s->op == OP_RW && !swept(sw, "rwmix"))
			add(buf, len, "%g%% reads", s->rwmix);
	}
	if (swept(sw, "workload"))
		;	/* on an axis or a panel */
	else if (s->seq)
		add(buf, len, "seq%s", s->direction == DIR_BACKWARD &&
		    !swept(sw, "direction") ? " backward" : "");
	else if (swept(sw, "dist"))
		add(buf, len, "rnd");
	else
		add(buf, len, "rnd %s%s%s", opt_values_name(dist_values, s->dist),
		    s->dist_arg ? ":" : "", s->dist_arg ? s->dist_arg : "");
	if (!swept(sw, "block-size")) {
		if (size_mix_active(&s->bsmix))
			add(buf, len, "sizes %s",
			    mix_sizes_text(&s->bsmix, s->bs, t, sizeof(t)));
		else
			add(buf, len, "%s I/Os",
			    fmt_size_exact(t, sizeof(t), s->bs));
	}
	if (!swept(sw, "stride") && spec_shows_stride(s))
		add(buf, len, "%s %s", s->seq ? "stride" : "alignment",
		    fmt_size_exact(t, sizeof(t), s->stride_eff));
	if (!swept(sw, "type"))
		add(buf, len, "%s", engine_name(s));
	if (!swept(sw, "queue-depth"))
		add(buf, len, "QD %llu", (unsigned long long)s->qd);
	if (!swept(sw, "threads") && s->threads > 1)
		add(buf, len, "%llu threads", (unsigned long long)s->threads);
	if (!swept(sw, "paged") && s->paged)
		add(buf, len, "page cache");
	/* a rated run: its rate (unless swept) and the arrivals, which
	 * decide how soon its latency from the intended start grows */
	if (s->rate.ops > 0 || s->rate.bytes) {
		if (!swept(sw, "rate") && s->rate.bytes)
			add(buf, len, "at %.6g MiB/s",
			    (double)s->rate.bytes / 1048576.0);
		else if (!swept(sw, "rate"))
			add(buf, len, "at %.6g ops/s", s->rate.ops);
		if (!swept(sw, "arrival"))
			add(buf, len, "%s arrivals",
			    rate_arrival_name(s->arrival));
	}
}

/* "/dev/sdb (Samsung SSD 860)": the path, and the model when the kernel
 * gives one. */
static void target_text(const struct workload *wl, char *buf, size_t len)
{
	if (wl->tgt.model[0])
		snprintf(buf, len, "%.120s (%s)", wl->tgt.path, wl->tgt.model);
	else
		snprintf(buf, len, "%.150s", wl->tgt.path);
}

static void duration_text(const struct spec *s, char *buf, size_t len)
{
	if (s->duration.kind == AMOUNT_BYTES)
		fmt_size_exact(buf, len, s->duration.value);
	else
		fmt_duration(buf, len, &s->duration);
}

void plot_about_made(struct plot_about *a)
{
	time_t now = time(NULL);
	struct tm tm;
	char d[32];

	localtime_r(&now, &tm);
	strftime(d, sizeof(d), "%Y-%m-%d %H:%M", &tm);
	snprintf(a->made, sizeof(a->made), "rebench %s, %s", REBENCH_VERSION, d);
}

/* What one spec says: its settings, its length, the workload kind and
 * when it was made; the parts a plot of workloads and one of a spec run
 * elsewhere share. */
static void about_spec(struct plot_about *a, const struct spec *s,
		       const struct sweep *sw, size_t runs)
{
	char d[32], g[32];

	memset(a, 0, sizeof(*a));
	settings(s, sw, a->about, sizeof(a->about));
	duration_text(s, d, sizeof(d));
	if (sw && !swept(sw, "duration"))
		snprintf(a->duration, sizeof(a->duration), "%s per point%s", d,
			 runs > 1 ? ", median of the runs" : "");
	else if (!sw && !s->sample_ns)	/* -g 0 */
		snprintf(a->duration, sizeof(a->duration),
			 "%s run, every I/O logged", d);
	else if (!sw)
		snprintf(a->duration, sizeof(a->duration),
			 "%s run in %s intervals", d,
			 fmt_time(g, sizeof(g), s->sample_ns));
	plot_about_made(a);
	a->workload = swept(sw, "workload") ? "" : s->seq ? "seq" : "rnd";
}

void plot_about_spec(struct plot_about *a, const struct spec *s,
		     const struct sweep *sw)
{
	about_spec(a, s, sw, 1);
}

/* Does wl write the --output file output (NULL: any workload does)? */
static bool writes(const struct workload *wl, const char *output)
{
	return !output || (wl->spec.output && !strcmp(wl->spec.output, output));
}

static void about_fill(struct plot_about *a, const struct workload *wls,
		       size_t n, const struct sweep *sw, size_t runs,
		       const char *output)
{
	char t[192], b[256];
	bool same_target = true, same_about = true, same_kind = true;
	size_t k, first = 0;

	while (first < n && !writes(&wls[first], output))
		first++;
	if (first == n) {
		memset(a, 0, sizeof(*a));
		plot_about_made(a);
		a->workload = "";
		return;
	}
	about_spec(a, &wls[first].spec, sw, runs);
	target_text(&wls[first], a->target, sizeof(a->target));
	for (k = first; k < n; k++) {
		if (!writes(&wls[k], output))
			continue;
		target_text(&wls[k], t, sizeof(t));
		settings(&wls[k].spec, sw, b, sizeof(b));
		same_target = same_target && !strcmp(t, a->target);
		same_about = same_about && !strcmp(b, a->about);
		same_kind = same_kind && wls[k].spec.seq == wls[first].spec.seq;
		if (wls[k].index < PLOT_NAMES) {
			snprintf(a->names[wls[k].index], sizeof(a->names[0]),
				 "%.70s: %.85s", wls[k].tgt.path, b);
			if (wls[k].index + 1 > a->nnames)
				a->nnames = wls[k].index + 1;
		}
	}
	if (!same_target)
		a->target[0] = '\0';
	if (!same_about)
		a->about[0] = '\0';
	if (!same_kind)	/* rnd and seq: neither names the stride */
		a->workload = "";
}

void plot_about_fill(struct plot_about *a, const struct workload *wls,
		     size_t n, const struct sweep *sw, size_t runs)
{
	about_fill(a, wls, n, sw, runs, NULL);
}

void plot_about_fill_file(struct plot_about *a, const struct workload *wls,
			  size_t n, const char *output)
{
	about_fill(a, wls, n, NULL, 1, output);
}

void plot_about_write(FILE *f, const struct plot_about *a, bool names)
{
	size_t k;

	if (a->target[0])
		fprintf(f, "# target: %s\n", a->target);
	if (a->about[0])
		fprintf(f, "# about: %s\n", a->about);
	if (a->duration[0])
		fprintf(f, "# duration: %s\n", a->duration);
	if (a->made[0])
		fprintf(f, "# made: %s\n", a->made);
	if (a->workload && a->workload[0])
		fprintf(f, "# workload: %s\n", a->workload);
	for (k = 0; names && k < a->nnames; k++)
		if (a->names[k][0])
			fprintf(f, "# workload %zu: %s\n", k + 1, a->names[k]);
}

int plot_metric_resolve(int metric, const struct spec *s,
			const struct sweep *sw)
{
	if (metric != PLOT_METRIC_AUTO)
		return metric;
	return s->seq && !swept(sw, "workload") ? PLOT_METRIC_MBS :
						  PLOT_METRIC_OPS;
}

const char *plot_metric_column(int metric)
{
	switch (metric) {
	case PLOT_METRIC_MBS:
		return "mib_per_s";
	case PLOT_METRIC_P50:
		return "lat_p50_us";
	case PLOT_METRIC_P99:
		return "lat_p99_us";
	default:
		return "ops_per_s";
	}
}

/* Does this gnuplot have the jpeg terminal?  1 yes, 0 no, -1 no gnuplot
 * (or no way to ask). */
static int gnuplot_has_jpeg(void)
{
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		signals_restore_for_child();
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execlp("gnuplot", "gnuplot", "-e", "set terminal jpeg", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status) == 0;
}

int plot_check_format(const char *path, char *err, size_t len)
{
	static const char *const ok[] = { "png", "svg", "pdf", "jpg", "jpeg" };
	const char *base = strrchr(path, '/'), *ext;
	size_t i;

	base = base ? base + 1 : path;
	ext = strrchr(base, '.');
	if (!ext || ext == base || !ext[1]) {
		snprintf(err, len, "--plot %s: the name has no extension, and gnuplot's format is chosen by it; name the picture .png, .svg, .pdf or .jpg",
			 path);
		return -EINVAL;
	}
	ext++;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcasecmp(ext, ok[i]))
			break;
	if (i == sizeof(ok) / sizeof(ok[0])) {
		snprintf(err, len, "--plot %s: rebench draws .png, .svg, .pdf and .jpg pictures, not .%s; give the picture one of those extensions",
			 path, ext);
		return -EINVAL;
	}
	if (i >= 3 && gnuplot_has_jpeg() == 0) {
		snprintf(err, len, "--plot %s: this gnuplot has no jpeg terminal (gnuplot -e 'set terminal' lists the ones it has); name the picture .png, .svg or .pdf",
			 path);
		return -EINVAL;
	}
	return 0;
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

/* Append "NAME='VALUE'; " for gnuplot -e: a single-quoted gnuplot string
 * takes everything literally but ' (written '') and line ends (made
 * spaces).  An empty value is left out: about.gpi then looks elsewhere. */
static void gp_set(char *buf, size_t len, const char *name, const char *val)
{
	size_t n = strlen(buf);

	if (!val || !*val)
		return;
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s='", name);
	for (; *val && n + 4 < len; val++) {
		if (*val == '\'')
			buf[n++] = '\'';
		buf[n++] = (unsigned char)*val < ' ' ? ' ' : *val;
	}
	snprintf(buf + n, n < len ? len - n : 0, "'; ");
}

/* The -e commands that give about.gpi its variables. */
static void gp_about(const struct plot_about *a, char *buf, size_t len)
{
	char name[32];
	size_t k;

	buf[0] = '\0';
	gp_set(buf, len, "rb_target", a->target);
	gp_set(buf, len, "rb_about", a->about);
	gp_set(buf, len, "rb_duration", a->duration);
	gp_set(buf, len, "rb_made", a->made);
	gp_set(buf, len, "rb_workload", a->workload);
	gp_set(buf, len, "rb_metric", a->metric);
	for (k = 0; k < a->nnames; k++) {
		snprintf(name, sizeof(name), "rb_wl%zu", k + 1);
		gp_set(buf, len, name, a->names[k]);
	}
}

static int run_gnuplot(const char *script, const char *const *args, int nargs,
		       const char *data_note, const char *about);

int plot_render(const char *script, const char *const *args, int nargs,
		const char *data_note, const struct plot_about *about)
{
	const char *targs[12];
	char tmp[PATH_MAX + 300], err[PATH_MAX + 1200], vars[8192] = "";
	mode_t mask;
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
	if (about)
		gp_about(about, vars, sizeof(vars));
	ret = run_gnuplot(script, targs, nargs, data_note, vars);
	/* a picture is for anyone the umask lets read it, not only for the
	 * owner of mkstemps()'s 0600 */
	mask = umask(0);
	umask(mask);
	if (!ret)
		chmod(tmp, 0666 & ~mask);
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
		       const char *data_note, const char *about)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	const char *argv[18];
	int i, a = 0, status;
	pid_t pid;

	plots_dir(script, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, script);
	if (access(path, R_OK)) {
		fprintf(stderr, "rebench: --plot: cannot find the gnuplot script %s (set REBENCH_PLOTS to the plots/ folder); %s\n",
			path, data_note);
		return -ENOENT;
	}
	argv[a++] = "gnuplot";
	if (about && *about) {
		argv[a++] = "-e";
		argv[a++] = about;
	}
	argv[a++] = "-c";
	argv[a++] = path;
	for (i = 0; i < nargs && i < 12; i++)
		argv[a++] = args[i];
	argv[a] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* standard output is rebench's (a table, JSON): what a script
		 * prints there (alignment-multiplot.gp's cbrange) stays out */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
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

int plot_check_path(const struct run_ctx *ctx, const char *plot)
{
	char err[PATH_MAX + 1200];
	size_t k;

	if (outpath_check("--plot", plot, err, sizeof(err)) ||
	    plot_check_format(plot, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return -EINVAL;
	}
	if (check_path_free(ctx, "--plot", plot))
		return -EINVAL;
	for (k = 0; k < ctx->n; k++)
		if (ctx->wls[k].spec.output &&
		    !strcmp(ctx->wls[k].spec.output, plot)) {
			spec_error(&ctx->wls[k].spec, "--plot %s is also the --output file; give the picture its own name",
				   plot);
			return -EINVAL;
		}
	return 0;
}
