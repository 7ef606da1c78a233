/* dump_layouts.c - prints the compiled-in matrix layouts (src/target/
 * matrix_layouts.c) as text for check_layouts.py, which compares every cell
 * with AMD's tables:
 *   insn FAMILY MNEMONIC M N K BLOCKS WAVE
 *   OP ROWS COLS PER_LANE ELEM_BITS pos(lane 0, e 0) pos(lane 0, e 1) ... */
#include <stdio.h>
#include "target/target.h"

static void dump_operand(const char *op, const TgtOperandLayout *l, int wave)
{
    printf("%s %d %d %d %d", op, l->rows, l->cols, l->per_lane, l->elem_bits);
    for (int i = 0; i < wave * l->per_lane; i++)
        printf(" %d", l->index[i]);
    printf("\n");
}

int main(void)
{
    for (int id = 0; id < TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)id);
        const TgtMatrixLayout *l = &tgt_matrix_layouts[id];
        printf("insn %s %s %d %d %d %d %d\n", mi->family, mi->mnemonic, mi->m, mi->n, mi->k, mi->blocks,
               mi->wave_size);
        dump_operand("A", l->a, mi->wave_size);
        dump_operand("B", l->b, mi->wave_size);
        dump_operand("D", l->d, mi->wave_size);
    }
    return 0;
}
