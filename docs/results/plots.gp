set terminal pngcairo size 900,560 noenhanced
set output 'barrier-256.png'
set title 'barrier: threads = 256'
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set logscale x 2
set format x '%g'
set logscale y
set key outside right
set grid
plot for [i=0:6] 'barrier-256.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'barrier-1024.png'
set title 'barrier: threads = 1024'
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set logscale x 2
set format x '%g'
set logscale y
set key outside right
set grid
plot for [i=0:6] 'barrier-1024.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'reduce-sum.png'
set title 'reduce: op = sum'
set xlabel 'elements (float32)'
set ylabel 'GB/s read (log scale)'
set logscale x 2
set format x '2^%L'
set logscale y
set key outside right
set grid
plot for [i=0:4] 'reduce-sum.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'reduce-min.png'
set title 'reduce: op = min'
set xlabel 'elements (float32)'
set ylabel 'GB/s read (log scale)'
set logscale x 2
set format x '2^%L'
set logscale y
set key outside right
set grid
plot for [i=0:4] 'reduce-min.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'reduce-max.png'
set title 'reduce: op = max'
set xlabel 'elements (float32)'
set ylabel 'GB/s read (log scale)'
set logscale x 2
set format x '2^%L'
set logscale y
set key outside right
set grid
plot for [i=0:4] 'reduce-max.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'dot-dot.png'
set title 'dot: op = dot'
set xlabel 'elements per vector (float32)'
set ylabel 'GB/s read (log scale)'
set logscale x 2
set format x '2^%L'
set logscale y
set key outside right
set grid
plot for [i=0:3] 'dot-dot.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

set terminal pngcairo size 900,560 noenhanced
set output 'gemm-all.png'
set title 'gemm: square shapes'
set xlabel 'square size n (m = n = k)'
set ylabel 'TFLOP/s (FP32)'
set logscale x 2
set format x '%g'
set key outside right
set grid
plot for [i=0:2] 'gemm-all.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale
set format x '%g'

