# Error against the number of Int8 matmuls, one curve per scheme and type,
# from results.dat (accuracy.c): uniform data, K = 4096, unguarded.
set terminal pngcairo size 1100,700 font ",11"
set output "accuracy.png"
set logscale xy
set format y "10^{%L}"
set xlabel "Int8 matmuls (native: one Float matmul; bf16: BFloat16 matmuls)"
set ylabel "max |C - Cref| / sum_k |A_{ik} B_{kj}|"
set title "Contraction precisions on the host: M = N = 128, K = 4096, uniform[-1, 1) data"
set key outside right
set grid
sel(t, f) = sprintf("< awk '$1==\"%s\" && $5==\"%s\" && $2==\"uniform\" && $3==4096 && $9==\"plain\"' results.dat", t, f)
plot for [t in "Float32 Float64"] for [f in "ozaki1 ozaki2 int8 int8-direct native"] \
     sel(t, f) using 6:7 with linespoints pointsize 1.3 title sprintf("%s %s", f, t), \
     sel("Float32", "bf16") using 6:7 with linespoints pointsize 1.3 title "bf16x6, bf16x9 Float32"
