/* throughput.c - peak rates per compute unit and cycle (target.h).
 *
 * Vector rates are the vendor's per-CU figures; memory rates the vendor's
 * peak bandwidth of one product of the family over its CUs and peak clock:
 *  - CDNA2: FP64 and FP32 vector 128 FLOPs/CU/clock (ROCm documentation,
 *    "AMD Instinct MI200 series microarchitecture", its FLOPS/clock/CU
 *    table); MI250X: 220 CUs, 1.7 GHz, 3.2768 TB/s HBM2e;
 *  - CDNA3: FP64 vector 128, FP32 vector 256 FLOPs/CU/clock (ROCm
 *    documentation, "AMD Instinct MI300 series microarchitecture");
 *    MI300X: 304 CUs, 2.1 GHz (81.7 TFLOPS FP64 vector / (304 x 128)),
 *    5.3 TB/s HBM3;
 *  - RDNA3 and RDNA4: FP32 128 FLOPs/CU/clock without dual issue, FP64 1/32
 *    of it, 4 (ROCm Compute Profiler documentation, "Workgroup processor
 *    (WGP)", which states it for RDNA; AMD publishes no FP64 figure of
 *    RDNA4's own, so RDNA4 takes it too); RX 7900 XTX: 96 CUs, 2.5 GHz, 960 GB/s GDDR6;
 *    RX 9070 XT: 64 CUs, 2.97 GHz, 644.6 GB/s GDDR6 (AMD's product pages).
 * Matrix rates come from the vendor's instruction tables (matrix-layouts
 * json: operations over issue-to-issue cycles) times the SIMDs of a CU, 4
 * on CDNA and 2 on RDNA: v_mfma_f64_16x16x4 gives 2048 / 32 x 4 = 256, the
 * tables' own FLOPs/CU/cycle; v_wmma_f32_16x16x16_f16 on gfx1100 gives
 * 8192 / 32 x 2 = 512, the RX 7900 XTX's 122.8 TFLOPS FP16 at 96 CUs and
 * 2.5 GHz. */
#include "target/target.h"
#include <string.h>

static const TgtThroughput families[] = {
    { "CDNA2", "AMD Instinct MI250X", 4, 128, 128, 3.2768e12 / (220 * 1.7e9) },
    { "CDNA3", "AMD Instinct MI300X", 4, 128, 256, 5.3e12 / (304 * 2.1e9) },
    { "RDNA3", "AMD Radeon RX 7900 XTX", 2, 4, 128, 960e9 / (96 * 2.5e9) },
    { "RDNA4", "AMD Radeon RX 9070 XT", 2, 4, 128, 644.6e9 / (64 * 2.97e9) },
};

const TgtThroughput *tgt_throughput(const TgtTarget *t)
{
    if (!t || t->kind != TGT_AMDGPU)
        return NULL;
    for (size_t k = 0; k < sizeof families / sizeof families[0]; k++)
        if (strcmp(families[k].family, t->family) == 0)
            return &families[k];
    return NULL;
}

double tgt_matrix_rate(const TgtTarget *t, TgtElem in, TgtElem acc)
{
    const TgtThroughput *f = tgt_throughput(t);
    double best = 0;
    for (const TgtMatrixId *id = t->matrix; f && *id != TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = tgt_matrix_inst(*id);
        double rate = 2.0 * mi->m * mi->n * mi->k * mi->blocks / mi->cycles * f->simds_per_cu;
        if (mi->in == in && mi->in_b == in && mi->acc == acc && rate > best)
            best = rate;
    }
    return best;
}
