/* report_mix.c - what the operation and size mixes asked for, in the
 * human and JSON parameters (the sizes achieved: section_sizes.c). */
#include <stdio.h>

#include "core/units.h"

#include "core/json.h"
#include "report/report.h"
#include "report/summary.h"

const char *spec_op_text(const struct spec *s, char *buf, size_t len)
{
	if (s->op != OP_MIX)
		return op_name(s->op);
	return mix_ops_text(&s->opmix, buf, len);
}

bool spec_shows_stride(const struct spec *s)
{
	/* a size mix aligns to its smallest size on its own: only a stride
	 * the user gave is worth a mention */
	if (size_mix_active(&s->bsmix))
		return s->stride != 0;
	return s->stride_eff != s->bs;
}

/* parameters.operation_mix and parameters.size_mix */
void report_json_mix_params(struct json *j, const struct spec *s)
{
	const struct size_mix *m = &s->bsmix;
	char text[512];
	unsigned i;
	int k;

	if (s->op == OP_MIX) {
		json_obj_begin(j, "operation_mix_pct");
		for (k = 0; k < IO_KINDS; k++)
			if (s->opmix.pct[k] > 0)
				json_num(j, io_kind_name(k), s->opmix.pct[k]);
		json_obj_end(j);
	}
	if (!size_mix_active(m)) {
		json_null(j, "size_mix");
		return;
	}
	json_obj_begin(j, "size_mix");
	json_str(j, "text", mix_sizes_text(m, s->bs, text, sizeof(text)));
	json_str(j, "kind", m->range ? "range" : "split");
	if (m->range) {
		json_u64(j, "min", m->size[0]);
		json_u64(j, "max", m->size[1]);
		json_u64(j, "step", m->step);
	} else {
		json_arr_begin(j, "sizes");
		for (i = 0; i < m->n; i++) {
			json_obj_begin(j, NULL);
			json_u64(j, "bytes", m->size[i]);
			json_num(j, "pct", m->pct[i]);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}
