/* cg_control.c - walking FXIR blocks: structured control flow (if, loop,
 * break, continue, return), calls, and the per-instruction dispatch.
 *
 * After a terminator (break/continue/return) the builder moves to a fresh
 * block without predecessors, so instructions that follow it in the same FXIR
 * block still have somewhere to go; LLVM drops those blocks. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include <string.h>

static void cg_inst(CgCtx *c, FxInst *i);

LLVMValueRef cg_val(CgCtx *c, FxInst *i)
{
    if (!i) {
        cg_error(c, (Loc){0}, "internal compiler error: missing operand");
        return LLVMGetPoison(LLVMInt32TypeInContext(c->C));
    }
    LLVMValueRef v = cg_map_get(&c->values, i);
    if (v)
        return v;
    /* parameters and constants are pure: materialize them wherever they are used */
    if (i->op == FX_PARAM && (v = cg_region_param(c, i)))
        return v;
    if (i->op == FX_PARAM && i->param_index >= 0 && i->param_index < c->cur->f->nparams)
        return c->params[i->param_index];
    if (i->op == FX_CONST)
        return cg_const(c, i->type, i->cval);
    if ((v = cg_region_value(c, i)))
        return v;
    cg_error(c, i->loc, "internal compiler error: %s value used before its definition",
             fxir_opcode_name(i->op));
    return LLVMGetPoison(cg_reg_type(c, i->type));
}

static void after_terminator(CgCtx *c)
{
    LLVMBasicBlockRef dead = LLVMAppendBasicBlockInContext(c->C, c->fn, "dead");
    LLVMPositionBuilderAtEnd(c->B, dead);
}

static void branch_to(CgCtx *c, LLVMBasicBlockRef bb)
{
    if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(c->B)))
        LLVMBuildBr(c->B, bb);
}

static void cg_if(CgCtx *c, FxInst *i)
{
    LLVMValueRef cond = cg_val(c, i->ops[0]);
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->C, c->fn, "then");
    LLVMBasicBlockRef els = i->nblocks > 1 && i->blocks[1].first
                          ? LLVMAppendBasicBlockInContext(c->C, c->fn, "else") : NULL;
    LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(c->C, c->fn, "endif");
    LLVMBuildCondBr(c->B, cond, then, els ? els : merge);
    LLVMPositionBuilderAtEnd(c->B, then);
    cg_emit_body(c, &i->blocks[0]);
    branch_to(c, merge);
    if (els) {
        LLVMPositionBuilderAtEnd(c->B, els);
        cg_emit_body(c, &i->blocks[1]);
        branch_to(c, merge);
    }
    LLVMMoveBasicBlockAfter(merge, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, merge);
}

static void cg_loop(CgCtx *c, FxInst *i)
{
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.cond");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.body");
    LLVMBasicBlockRef step = LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.step");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.end");
    LLVMBuildBr(c->B, head);
    LLVMPositionBuilderAtEnd(c->B, head);
    cg_emit_body(c, &i->blocks[0]);
    if (i->ops[0])
        LLVMBuildCondBr(c->B, cg_val(c, i->ops[0]), body, exit);
    else
        LLVMBuildBr(c->B, body);
    CgLoop lp = { step, exit, c->loop };
    c->loop = &lp;
    LLVMMoveBasicBlockAfter(body, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, body);
    cg_emit_body(c, &i->blocks[1]);
    branch_to(c, step);
    c->loop = lp.outer;
    LLVMMoveBasicBlockAfter(step, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, step);
    if (i->nblocks > 2)
        cg_emit_body(c, &i->blocks[2]);
    branch_to(c, head);
    LLVMMoveBasicBlockAfter(exit, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, exit);
}

static LLVMValueRef cg_call(CgCtx *c, FxInst *i)
{
    CgFunc *cf = i->callee ? cg_map_get(&c->funcs, i->callee) : NULL;
    if (!cf) {
        cg_error(c, i->loc, "internal compiler error: call to an unknown function");
        return NULL;
    }
    int n = i->nops + cf->nhidden + (cg_host_abi(c) ? 1 : 0);
    LLVMValueRef *args = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(n + 1));
    for (int k = 0; k < i->nops; k++)
        args[k] = cg_val(c, i->ops[k]);
    /* host: where each Ptr argument came from, for the callee's bounds checks */
    int h = i->nops;
    for (int k = 0; k < i->nops && h < i->nops + cf->nhidden; k++) {
        if (i->ops[k]->type->kind != TY_PTR)
            continue;
        LLVMValueRef o = cg_ptr_origin(c, i->ops[k]);
        args[h++] = o ? o : LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned long long)-1, 1);
    }
    if (cg_host_abi(c))
        args[n - 1] = c->hostctx;
    if ((int)LLVMCountParamTypes(cf->fnty) != n) {
        cg_error(c, i->loc, "internal compiler error: '%s' called with %d arguments",
                 cf->f->name, i->nops);
        return NULL;
    }
    return LLVMBuildCall2(c->B, cf->fnty, cf->fn, args, (unsigned)n, "");
}

static void cg_inst(CgCtx *c, FxInst *i)
{
    cg_debug_loc(c, i);
    LLVMValueRef v = NULL;
    if (i->loc.line > 0)
        cg_crash_line(i->loc.line);
    switch (i->op) {
    case FX_CONST: v = cg_const(c, i->type, i->cval); break;
    case FX_PARAM: v = cg_val(c, i); break;
    case FX_BINOP: v = cg_binop(c, i); break;
    case FX_CMP: v = cg_cmp(c, i); break;
    case FX_UNOP: v = cg_unop(c, i); break;
    case FX_CAST: v = cg_cast(c, i); break;
    case FX_BITCAST:
    case FX_SELECT:
    case FX_SPLAT:
    case FX_EXTRACT:
    case FX_INSERT: v = cg_vector_op(c, i); break;
    case FX_FMA: v = cg_fma(c, i); break;
    case FX_MATH: v = cg_math(c, i); break;
    case FX_MINMAX: v = cg_minmax(c, i); break;
    case FX_CEILDIV: v = cg_ceildiv(c, i); break;
    case FX_SPECIAL: v = cg_special(c, i); break;
    case FX_ALLOCA:
        v = cg_region_alloca(c, i);
        v = v ? v : cg_alloca(c, i);
        break;
    case FX_LOAD: v = cg_load(c, i); break;
    case FX_STORE: cg_store(c, i); break;
    case FX_ATOMIC: v = cg_atomic(c, i); break;
    case FX_BARRIER: cg_barrier(c, i); break;
    case FX_FENCE: cg_fence(c, i); break;
    case FX_IF: cg_if(c, i); break;
    case FX_LOOP: cg_loop(c, i); break;
    case FX_BREAK:
    case FX_CONTINUE:
        if (cg_region_jump(c, i)) {
            after_terminator(c);
            break;
        }
        if (!c->loop) {
            cg_error(c, i->loc, "internal compiler error: %s outside a loop",
                     i->op == FX_BREAK ? "break" : "continue");
            break;
        }
        LLVMBuildBr(c->B, i->op == FX_BREAK ? c->loop->brk : c->loop->cont);
        after_terminator(c);
        break;
    case FX_RETURN:
        if (cg_region_return(c, i)) {
            after_terminator(c);
            break;
        }
        if (i->nops > 0 && i->ops[0] && c->cur->f->kind == FXF_FN)
            LLVMBuildRet(c->B, cg_val(c, i->ops[0]));
        else
            LLVMBuildRetVoid(c->B);
        after_terminator(c);
        break;
    case FX_CALL: v = cg_call(c, i); break;
    case FX_MFMA: v = cg_mfma(c, i); break;
    case FX_WAVE: v = cg_wave(c, i); break;
    case FX_WAVE_EXCHANGE: v = cg_wave_exchange(c, i); break;
    case FX_WAVE_ACTIVE: v = cg_wave_active(c, i); break;
    case FX_PTR_OFFSET: v = cg_ptr_offset(c, i); break;
    case FX_LDEXP: v = cg_ldexp(c, i); break;
    case FX_FREXP_EXP: v = cg_frexp_exp(c, i); break;
    case FX_PRINT: cg_print(c, i); break;
    case FX_ASSERT: cg_assert(c, i); break;
    default:
        cg_error(c, i->loc, "internal compiler error: opcode %d", (int)i->op);
        break;
    }
    if (v) {
        if (i->name && *i->name && !LLVMIsConstant(v) && !LLVMGetValueName2(v, &(size_t){0})[0])
            LLVMSetValueName2(v, i->name, strlen(i->name));
        /* a fn's parameter emitted in place stands for a value of its caller,
         * which differs from one work-item loop to the next */
        if (!(i->op == FX_PARAM && c->regions))
            cg_map_put(&c->values, i, v);
        cg_region_define(c, i, v);
    }
}

void cg_emit_range(CgCtx *c, FxInst *from, FxInst *to)
{
    for (FxInst *i = from; i && i != to; i = i->next)
        cg_inst(c, i);
}

void cg_emit_body(CgCtx *c, FxBlock *b)
{
    cg_emit_range(c, b->first, NULL);
}
