set terminal pngcairo size 900,560 noenhanced
set output 'barrier-256.png'
set title 'barrier: threads = 256'
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set logscale x 2
set logscale y
set key outside right
set grid
plot for [i=0:6] 'barrier-256.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale

set terminal pngcairo size 900,560 noenhanced
set output 'barrier-1024.png'
set title 'barrier: threads = 1024'
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set logscale x 2
set logscale y
set key outside right
set grid
plot for [i=0:6] 'barrier-1024.dat' index i using 1:2 with linespoints title columnheader(1)
unset logscale

