# barrier-speedup-256
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'barrier-speedup-256.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'speedup over grid.sync (log scale)'
set xrange [-0.59999999999999998:3.6000000000000001]
set yrange [0.1454277913042073:16.896904898798759]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 2
set ytics ('0.25x' 0.25, '0.5x' 0.5, '1x' 1, '2x' 2, '4x' 4, '8x' 8, '16x' 16)
plot 'barrier-speedup-256.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'barrier-speedup-256.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'barrier-speedup-256.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#6baed6' title columnheader(1), \
     'barrier-speedup-256.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#756bb1' title columnheader(1), \
     'barrier-speedup-256.dat' index 3 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#006d2c' title columnheader(1), \
     'barrier-speedup-256.dat' index 4 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'barrier-speedup-256.dat' index 5 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'barrier-speedup-256.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'barrier-speedup-256.dat' index 7 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#8c6d31' title columnheader(1), \
     'barrier-speedup-256.dat' index 8 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-256.dat' index 9 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1), \
     'barrier-speedup-256.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'barrier-speedup-256.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'barrier-speedup-256.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# barrier-speedup-1024
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'barrier-speedup-1024.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'speedup over grid.sync (log scale)'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0.14544758941191938:10.888052029721996]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 2
set ytics ('0.25x' 0.25, '0.5x' 0.5, '1x' 1, '2x' 2, '4x' 4, '8x' 8)
plot 'barrier-speedup-1024.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'barrier-speedup-1024.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'barrier-speedup-1024.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-1024.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#6baed6' title columnheader(1), \
     'barrier-speedup-1024.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#756bb1' title columnheader(1), \
     'barrier-speedup-1024.dat' index 3 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-1024.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#006d2c' title columnheader(1), \
     'barrier-speedup-1024.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'barrier-speedup-1024.dat' index 5 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-1024.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'barrier-speedup-1024.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'barrier-speedup-1024.dat' index 7 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-1024.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#8c6d31' title columnheader(1), \
     'barrier-speedup-1024.dat' index 8 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'barrier-speedup-1024.dat' index 9 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1), \
     'barrier-speedup-1024.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'barrier-speedup-1024.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'barrier-speedup-1024.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# barrier-time-256
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'barrier-time-256.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set xrange [-0.59999999999999998:3.6000000000000001]
set yrange [0.04201000090688467:8.9720832824707042]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 10
set ytics ('0.05' 0.050000000000000003, '0.1' 0.10000000000000001, '0.2' 0.20000000000000001, '0.5' 0.5, '1' 1, '2' 2, '5' 5)
plot 'barrier-time-256.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 8 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 9 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1), \
     'barrier-time-256.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'barrier-time-256.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'barrier-time-256.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# barrier-time-1024
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'barrier-time-1024.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per barrier (log scale)'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0.067710001021623611:9.7014526367187521]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 10
set ytics ('0.1' 0.10000000000000001, '0.2' 0.20000000000000001, '0.5' 0.5, '1' 1, '2' 2, '5' 5)
plot 'barrier-time-1024.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 8 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 9 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1), \
     'barrier-time-1024.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'barrier-time-1024.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'barrier-time-1024.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-speedup-256
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-speedup-256.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'speedup over grid.sync (log scale)'
set xrange [-0.59999999999999998:4.5999999999999996]
set yrange [0.18327193217907009:9.8716336896256891]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 2
set ytics ('0.25x' 0.25, '0.5x' 0.5, '1x' 1, '2x' 2, '4x' 4, '8x' 8)
plot 'sync-speedup-256.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'sync-speedup-256.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'sync-speedup-256.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#6baed6' title columnheader(1), \
     'sync-speedup-256.dat' index 2 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#756bb1' title columnheader(1), \
     'sync-speedup-256.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#006d2c' title columnheader(1), \
     'sync-speedup-256.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#3182bd' title columnheader(1), \
     'sync-speedup-256.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#74c476' title columnheader(1), \
     'sync-speedup-256.dat' index 6 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#9e9ac8' title columnheader(1), \
     'sync-speedup-256.dat' index 7 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'sync-speedup-256.dat' index 9 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'sync-speedup-256.dat' index 9 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 10 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'sync-speedup-256.dat' index 10 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-256.dat' index 11 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1), \
     'sync-speedup-256.dat' index 12 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-speedup-256.dat' index 13 using 1:2:3 with labels font ',15' notitle, \
     'sync-speedup-256.dat' index 14 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-speedup-1024
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-speedup-1024.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'speedup over grid.sync (log scale)'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0.24152440647235374:6.5282114352611851]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 2
set ytics ('0.25x' 0.25, '0.5x' 0.5, '1x' 1, '2x' 2, '4x' 4)
plot 'sync-speedup-1024.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'sync-speedup-1024.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'sync-speedup-1024.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#6baed6' title columnheader(1), \
     'sync-speedup-1024.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#756bb1' title columnheader(1), \
     'sync-speedup-1024.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#006d2c' title columnheader(1), \
     'sync-speedup-1024.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#3182bd' title columnheader(1), \
     'sync-speedup-1024.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#74c476' title columnheader(1), \
     'sync-speedup-1024.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#9e9ac8' title columnheader(1), \
     'sync-speedup-1024.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'sync-speedup-1024.dat' index 9 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'sync-speedup-1024.dat' index 9 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-speedup-1024.dat' index 10 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'sync-speedup-1024.dat' index 11 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1), \
     'sync-speedup-1024.dat' index 12 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-speedup-1024.dat' index 13 using 1:2:3 with labels font ',15' notitle, \
     'sync-speedup-1024.dat' index 14 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-time-256
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-time-256.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per step (log scale)'
set xrange [-0.59999999999999998:4.5999999999999996]
set yrange [0.080800000578165054:9.358950042724608]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 10
set ytics ('0.1' 0.10000000000000001, '0.2' 0.20000000000000001, '0.5' 0.5, '1' 1, '2' 2, '5' 5)
plot 'sync-time-256.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#74c476' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#9e9ac8' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 8 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 9 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 10 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 11 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'sync-time-256.dat' index 12 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-time-256.dat' index 13 using 1:2:3 with labels font ',15' notitle, \
     'sync-time-256.dat' index 14 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-time-1024
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-time-1024.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per step (log scale)'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0.12718000449240208:6.2369792938232429]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set logscale y 10
set ytics ('0.2' 0.20000000000000001, '0.5' 0.5, '1' 1, '2' 2, '5' 5)
plot 'sync-time-1024.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#74c476' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#9e9ac8' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 8 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 9 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 10 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 11 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'sync-time-1024.dat' index 12 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-time-1024.dat' index 13 using 1:2:3 with labels font ',15' notitle, \
     'sync-time-1024.dat' index 14 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-split-256
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-split-256.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per step'
set xrange [-0.59999999999999998:4.5999999999999996]
set yrange [0:6.1079039573669442]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'sync-split-256.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'sync-split-256.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'sync-split-256.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-split-256.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'sync-split-256.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'sync-split-256.dat' index 3 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'sync-split-256.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'sync-split-256.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#8c6d31' title columnheader(1), \
     'sync-split-256.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#de2d26' title columnheader(1), \
     'sync-split-256.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#636363' title columnheader(1), \
     'sync-split-256.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fdae6b' title columnheader(1), \
     'sync-split-256.dat' index 9 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#bd9e39' title columnheader(1), \
     'sync-split-256.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-split-256.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'sync-split-256.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# sync-split-1024
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'sync-split-1024.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'microseconds per step'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0:4.1372672319412231]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'sync-split-1024.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'sync-split-1024.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'sync-split-1024.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'sync-split-1024.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'sync-split-1024.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'sync-split-1024.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#8c6d31' title columnheader(1), \
     'sync-split-1024.dat' index 6 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#de2d26' title columnheader(1), \
     'sync-split-1024.dat' index 7 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#636363' title columnheader(1), \
     'sync-split-1024.dat' index 8 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fdae6b' title columnheader(1), \
     'sync-split-1024.dat' index 9 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#bd9e39' title columnheader(1), \
     'sync-split-1024.dat' index 10 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'sync-split-1024.dat' index 11 using 1:2:3 with labels font ',15' notitle, \
     'sync-split-1024.dat' index 12 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# reduce-speedup-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'reduce-speedup-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'speedup over cub'
set xrange [819.20000000000005:1342177280]
set yrange [0:3.0946292241370159]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'reduce-speedup-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'reduce-speedup-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'reduce-speedup-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'reduce-speedup-1.dat' index 3 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'reduce-speedup-1.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'reduce-speedup-1.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# reduce-speedup-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'reduce-speedup-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'speedup over cub'
set xrange [819.20000000000005:1342177280]
set yrange [0:2.9613596129112061]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'reduce-speedup-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'reduce-speedup-2.dat' index 1 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'reduce-speedup-2.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'reduce-speedup-2.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# reduce-speedup-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'reduce-speedup-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'speedup over cub'
set xrange [819.20000000000005:1342177280]
set yrange [0:3.2248420193438978]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'reduce-speedup-3.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'reduce-speedup-3.dat' index 1 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'reduce-speedup-3.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'reduce-speedup-3.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# reduce-latency
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'reduce-latency.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'microseconds per call'
set xrange [819.20000000000005:5242880]
set yrange [0:16.035360395908356]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'reduce-latency.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'reduce-latency.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'reduce-latency.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'reduce-latency.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'reduce-latency.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'reduce-latency.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# reduce-bandwidth
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'reduce-bandwidth.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'GB/s read'
set xrange [819.20000000000005:1342177280]
set yrange [0:5295.7344000000003]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'reduce-bandwidth.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'reduce-bandwidth.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'reduce-bandwidth.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'reduce-bandwidth.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'reduce-bandwidth.dat' index 4 using 1:2 with lines lw 2 dt 4 lc rgb '#555555' title columnheader(1), \
     'reduce-bandwidth.dat' index 5 using 1:2 with lines lw 2 dt 3 lc rgb '#555555' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'reduce-bandwidth.dat' index 6 using 1:2:3 with labels font ',15' notitle, \
     'reduce-bandwidth.dat' index 7 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# dot-speedup
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'dot-speedup.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements per vector (float32)'
set ylabel 'speedup over cublas'
set xrange [819.20000000000005:1342177280]
set yrange [0:2.4591567453857084]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'dot-speedup.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'dot-speedup.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'dot-speedup.dat' index 2 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'dot-speedup.dat' index 3 using 1:2:3 with labels font ',15' notitle, \
     'dot-speedup.dat' index 4 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# dot-latency
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'dot-latency.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements per vector (float32)'
set ylabel 'microseconds per call'
set xrange [819.20000000000005:5242880]
set yrange [0:263.70255470275885]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'dot-latency.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'dot-latency.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'dot-latency.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'dot-latency.dat' index 3 using 1:2:3 with labels font ',15' notitle, \
     'dot-latency.dat' index 4 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# dot-bandwidth
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'dot-bandwidth.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements per vector (float32)'
set ylabel 'GB/s read'
set xrange [819.20000000000005:1342177280]
set yrange [0:5295.7344000000003]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'dot-bandwidth.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'dot-bandwidth.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'dot-bandwidth.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'dot-bandwidth.dat' index 3 using 1:2 with lines lw 2 dt 4 lc rgb '#555555' title columnheader(1), \
     'dot-bandwidth.dat' index 4 using 1:2 with lines lw 2 dt 3 lc rgb '#555555' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'dot-bandwidth.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'dot-bandwidth.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# scan-speedup-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'scan-speedup-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'speedup over cub'
set xrange [819.20000000000005:1342177280]
set yrange [0:2.7477821121447228]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'scan-speedup-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'scan-speedup-1.dat' index 1 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'scan-speedup-1.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'scan-speedup-1.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# scan-speedup-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'scan-speedup-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'speedup over cub'
set xrange [819.20000000000005:1342177280]
set yrange [0:2.7255814346519123]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%gx'
plot 'scan-speedup-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'scan-speedup-2.dat' index 1 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'scan-speedup-2.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'scan-speedup-2.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# scan-bandwidth
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'scan-bandwidth.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'GB/s read + written'
set xrange [819.20000000000005:1342177280]
set yrange [0:5295.7344000000003]
set logscale x 2
set xtics ('2^10' 1024, '2^13' 8192, '2^16' 65536, '2^19' 524288, '2^22' 4194304, '2^25' 33554432, '2^28' 268435456, '2^30' 1073741824)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'scan-bandwidth.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'scan-bandwidth.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'scan-bandwidth.dat' index 2 using 1:2 with lines lw 2 dt 4 lc rgb '#555555' title columnheader(1), \
     'scan-bandwidth.dat' index 3 using 1:2 with lines lw 2 dt 3 lc rgb '#555555' title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'scan-bandwidth.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'scan-bandwidth.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# gemm-speedup
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'gemm-speedup.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'm x n x k'
set ylabel 'throughput relative to cuBLAS'
set xrange [-0.59999999999999998:9.5999999999999996]
set yrange [0:1.2026360505065483]
set xtics scale 0
set xtics rotate by 25 right
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%gx'
plot 'gemm-speedup.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'gemm-speedup.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'gemm-speedup.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'gemm-speedup.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'gemm-speedup.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#6baed6' title columnheader(1), \
     'gemm-speedup.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'gemm-speedup.dat' index 3 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'gemm-speedup.dat' index 4 using 1:2 with lines lw 1.5 dt 1 lc rgb '#222222' title columnheader(1), \
     'gemm-speedup.dat' index 5 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'gemm-speedup.dat' index 6 using 1:2:3 with labels font ',15' notitle, \
     'gemm-speedup.dat' index 7 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# gemm-tflops
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'gemm-tflops.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'square size n (m = n = k)'
set ylabel 'TFLOP/s (FP32)'
set xrange [409.60000000000002:10240]
set yrange [0:57.037131261414252]
set logscale x 2
set xtics ('2^9' 512, '2^10' 1024, '1536' 1536, '2^11' 2048, '2^12' 4096, '2^13' 8192)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'gemm-tflops.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'gemm-tflops.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'gemm-tflops.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'gemm-tflops.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'gemm-tflops.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'gemm-tflops.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'gemm-tflops.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-time-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-time-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'microseconds per step (log scale)'
set xrange [52428.800000000003:20971520]
set yrange [3.3945313771255319:1633.6704254150391]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('5' 5, '10' 10, '20' 20, '50' 50, '100' 100, '200' 200, '500' 500, '1000' 1000)
plot 'apps-time-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-time-1.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-time-1.dat' index 7 using 1:2:3 with labels font ',15' notitle, \
     'apps-time-1.dat' index 8 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-time-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-time-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'microseconds per step (log scale)'
set xrange [52428.800000000003:20971520]
set yrange [0.51837999373674393:128.66319417953491]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('1' 1, '2' 2, '5' 5, '10' 10, '20' 20, '50' 50, '100' 100)
plot 'apps-time-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#636363' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-time-2.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-time-2.dat' index 8 using 1:2:3 with labels font ',15' notitle, \
     'apps-time-2.dat' index 9 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-time-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-time-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'microseconds per step (log scale)'
set xrange [52428.800000000003:20971520]
set yrange [3.4922012274370253:20.900977982415093]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('5' 5, '10' 10, '20' 20)
plot 'apps-time-3.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-time-3.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-time-3.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-time-3.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-time-3.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-time-3.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'apps-time-3.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-time-4
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-time-4.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'microseconds per step (log scale)'
set xrange [52428.800000000003:20971520]
set yrange [3.6116000264883041:275.08172607421875]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('5' 5, '10' 10, '20' 20, '50' 50, '100' 100, '200' 200)
plot 'apps-time-4.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-time-4.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-time-4.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-time-4.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-time-4.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'apps-time-4.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-graph-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-graph-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA-graph version'
set xrange [52428.800000000003:20971520]
set yrange [0:8.5598817820051352]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-graph-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-graph-1.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-graph-1.dat' index 7 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-graph-1.dat' index 8 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-graph-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-graph-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA-graph version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.3531897561441486]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-graph-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#636363' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-graph-2.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-graph-2.dat' index 8 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-graph-2.dat' index 9 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-graph-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-graph-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA-graph version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.0175449728875536]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-graph-3.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-graph-3.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-graph-3.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-graph-3.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-graph-3.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-graph-3.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-graph-3.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-graph-4
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-graph-4.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA-graph version'
set xrange [52428.800000000003:20971520]
set yrange [0:1.2835363748560444]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-graph-4.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-graph-4.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-graph-4.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-graph-4.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-graph-4.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-graph-4.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-full-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-full-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the full-barrier version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.5298825930288444]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-full-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-full-1.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-full-1.dat' index 7 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-full-1.dat' index 8 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-full-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-full-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the full-barrier version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.5600602853420917]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-full-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#636363' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-full-2.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-full-2.dat' index 8 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-full-2.dat' index 9 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-full-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-full-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the full-barrier version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.3446565807100059]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-full-3.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-full-3.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-full-3.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-full-3.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-full-3.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-full-3.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-full-3.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-pdl-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-pdl-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA graph + PDL version'
set xrange [52428.800000000003:20971520]
set yrange [0:2.6723962571526783]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-pdl-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-1.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#de2d26' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-pdl-1.dat' index 7 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-pdl-1.dat' index 8 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-pdl-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-pdl-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA graph + PDL version'
set xrange [52428.800000000003:20971520]
set yrange [0:3.431927453066772]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-pdl-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#636363' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 5 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 6 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-2.dat' index 7 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-pdl-2.dat' index 8 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-pdl-2.dat' index 9 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-pdl-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-pdl-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA graph + PDL version'
set xrange [52428.800000000003:20971520]
set yrange [0:1.9699996115435834]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-pdl-3.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-3.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-3.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#bd9e39' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-3.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-3.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-pdl-3.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-pdl-3.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# apps-vs-pdl-4
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'apps-vs-pdl-4.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'problem size'
set ylabel 'speedup over the CUDA graph + PDL version'
set xrange [52428.800000000003:20971520]
set yrange [0:1.2283059445877886]
set logscale x 2
set xtics ('2^16' 65536, '2^20' 1048576, '2^22' 4194304, '2^24' 16777216)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'apps-vs-pdl-4.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-4.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#fdae6b' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-4.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1), \
     'apps-vs-pdl-4.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 12 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'apps-vs-pdl-4.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'apps-vs-pdl-4.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-barrier-scaling-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-barrier-scaling-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'GPUs'
set ylabel 'microseconds per barrier (log scale)'
set xrange [1.8999999999999999:4.0999999999999996]
set yrange [0.89461437500659713:3.877902399972299]
set xtics ('2' 2, '3' 3, '4' 4)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('1' 1, '2' 2)
plot 'multi-barrier-scaling-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-barrier-scaling-1.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'multi-barrier-scaling-1.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-barrier-scaling-132
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-barrier-scaling-132.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'GPUs'
set ylabel 'microseconds per barrier (log scale)'
set xrange [1.8999999999999999:4.0999999999999996]
set yrange [1.8824212500057058:5.9210223999798473]
set xtics ('2' 2, '3' 3, '4' 4)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('2' 2, '5' 5)
plot 'multi-barrier-scaling-132.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-132.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-132.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'multi-barrier-scaling-132.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#8c6d31' lw 1.8 dt 2 pt 10 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-barrier-scaling-132.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'multi-barrier-scaling-132.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-reduce-scaling
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-reduce-scaling.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'GPUs'
set ylabel 'GB/s read, all GPUs'
set xrange [1.8999999999999999:4.0999999999999996]
set yrange [0:16868.206074692062]
set xtics ('2' 2, '3' 3, '4' 4)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'multi-reduce-scaling.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'multi-reduce-scaling.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'multi-reduce-scaling.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-reduce-scaling.dat' index 3 using 1:2:3 with labels font ',15' notitle, \
     'multi-reduce-scaling.dat' index 4 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-barrier-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-barrier-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method (blocks per GPU)'
set ylabel 'microseconds per barrier'
set xrange [-0.59999999999999998:10.6]
set yrange [0:85.413760299985597]
set xtics scale 0
set xtics rotate by 25 right
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-barrier-2.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-barrier-2.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#e6550d' title 'peers', \
     'multi-barrier-2.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-barrier-2.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-barrier-2.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-barrier-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-barrier-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method (blocks per GPU)'
set ylabel 'microseconds per barrier'
set xrange [-0.59999999999999998:5.5999999999999996]
set yrange [0:28.141930299990751]
set xtics scale 0
set xtics rotate by 25 right
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-barrier-3.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-barrier-3.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#e6550d' title 'peers', \
     'multi-barrier-3.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-barrier-3.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-barrier-3.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-barrier-4
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-barrier-4.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method (blocks per GPU)'
set ylabel 'microseconds per barrier'
set xrange [-0.59999999999999998:5.5999999999999996]
set yrange [0:41.490069500008524]
set xtics scale 0
set xtics rotate by 25 right
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-barrier-4.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-barrier-4.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#e6550d' title 'peers', \
     'multi-barrier-4.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-barrier-4.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-barrier-4.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-reduce-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-reduce-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method'
set ylabel 'GB/s read, all GPUs'
set xrange [-0.59999999999999998:2.6000000000000001]
set yrange [0:8881.0389001903532]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-reduce-2.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-reduce-2.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     'multi-reduce-2.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-reduce-2.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-reduce-2.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-reduce-3
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-reduce-3.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method'
set ylabel 'GB/s read, all GPUs'
set xrange [-0.59999999999999998:1.6000000000000001]
set yrange [0:12792.886146809849]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-reduce-3.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-reduce-3.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     'multi-reduce-3.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-reduce-3.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-reduce-3.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# multi-reduce-4
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'multi-reduce-4.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'method'
set ylabel 'GB/s read, all GPUs'
set xrange [-0.59999999999999998:1.6000000000000001]
set yrange [0:16868.206074692062]
set xtics scale 0
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'multi-reduce-4.dat' index 0 using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 noborder lc rgb variable notitle, \
     'multi-reduce-4.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     keyentry with boxes fs solid 0.9 noborder lc rgb '#08519c' title 'gridsync', \
     'multi-reduce-4.dat' index 1 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'multi-reduce-4.dat' index 2 using 1:2:3 with labels font ',15' notitle, \
     'multi-reduce-4.dat' index 3 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# handoff-latency
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'handoff-latency.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'blocks in the grid'
set ylabel 'us per hand-off'
set xrange [0.80000000000000004:1320]
set yrange [0:1.820537479583662]
set logscale x 2
set xtics ('1' 1, '2' 2, '66' 66, '132' 132, '264' 264, '528' 528, '1056' 1056)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'handoff-latency.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'handoff-latency.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'handoff-latency.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'handoff-latency.dat' index 3 using 1:2:3 with labels font ',15' notitle, \
     'handoff-latency.dat' index 4 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# decode-bandwidth
reset
set terminal pngcairo size 1484,600 noenhanced font 'sans,11'
set output 'decode-bandwidth.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'workload, dtype, D, batch'
set ylabel 'fraction of the measured read bandwidth'
set xrange [-0.59999999999999998:15.6]
set yrange [0:1.1092004484749516]
set xtics scale 0
set xtics rotate by 25 right
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set format y '%g'
plot 'decode-bandwidth.dat' index 0 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#08519c' title columnheader(1), \
     'decode-bandwidth.dat' index 0 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 1 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#31a354' title columnheader(1), \
     'decode-bandwidth.dat' index 1 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 2 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#e6550d' title columnheader(1), \
     'decode-bandwidth.dat' index 2 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 3 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#a50f15' title columnheader(1), \
     'decode-bandwidth.dat' index 3 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 4 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#fd8d3c' title columnheader(1), \
     'decode-bandwidth.dat' index 4 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 5 using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 noborder lc rgb '#8c6d31' title columnheader(1), \
     'decode-bandwidth.dat' index 5 using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle, \
     'decode-bandwidth.dat' index 6 using 1:(NaN):xtic(2) notitle
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'decode-bandwidth.dat' index 7 using 1:2:3 with labels font ',15' notitle, \
     'decode-bandwidth.dat' index 8 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# python-time-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'python-time-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'us per call (GPU)'
set xrange [819.20000000000005:335544320]
set yrange [2.9324637590974998:3137.76123046875]
set logscale x 2
set xtics ('2^10' 1024, '2^16' 65536, '2^22' 4194304, '2^28' 268435456)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('5' 5, '10' 10, '20' 20, '50' 50, '100' 100, '200' 200, '500' 500, '1000' 1000, '2000' 2000)
plot 'python-time-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'python-time-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'python-time-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'python-time-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'python-time-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'python-time-1.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'python-time-1.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# python-time-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'python-time-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'us per call (GPU)'
set xrange [819.20000000000005:335544320]
set yrange [2.8680768819191513:402.22721099853521]
set logscale x 2
set xtics ('2^10' 1024, '2^16' 65536, '2^22' 4194304, '2^28' 268435456)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set logscale y 10
set ytics ('5' 5, '10' 10, '20' 20, '50' 50, '100' 100, '200' 200)
plot 'python-time-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'python-time-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'python-time-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'python-time-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'python-time-2.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'python-time-2.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# python-host-1
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'python-host-1.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'us per call (host, to issue it)'
set xrange [819.20000000000005:335544320]
set yrange [0:36.904396822159171]
set logscale x 2
set xtics ('2^10' 1024, '2^16' 65536, '2^22' 4194304, '2^28' 268435456)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'python-host-1.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#08519c' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'python-host-1.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#31a354' lw 2.5 dt 1 pt 5 ps 1.1 title columnheader(1), \
     'python-host-1.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#6baed6' lw 2.5 dt 1 pt 9 ps 1.1 title columnheader(1), \
     'python-host-1.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#e6550d' lw 1.8 dt 2 pt 6 ps 1.1 title columnheader(1), \
     'python-host-1.dat' index 4 using 1:2:3:4 with yerrorlines lc rgb '#a50f15' lw 1.8 dt 2 pt 4 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'python-host-1.dat' index 5 using 1:2:3 with labels font ',15' notitle, \
     'python-host-1.dat' index 6 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

# python-host-2
reset
set terminal pngcairo size 960,600 noenhanced font 'sans,11'
set output 'python-host-2.png'
set multiplot
set tmargin at screen 0.8700
set lmargin 11
set rmargin 4
set border 3 lc rgb '#444444'
set tics nomirror out
set key below horizontal center Left reverse samplen 3 spacing 1.15 width 2
set xlabel 'elements (float32)'
set ylabel 'us per call (host, to issue it)'
set xrange [819.20000000000005:335544320]
set yrange [0:13.775996935197021]
set logscale x 2
set xtics ('2^10' 1024, '2^16' 65536, '2^22' 4194304, '2^28' 268435456)
set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
set format y '%g'
plot 'python-host-2.dat' index 0 using 1:2:3:4 with yerrorlines lc rgb '#756bb1' lw 2.5 dt 1 pt 11 ps 1.1 title columnheader(1), \
     'python-host-2.dat' index 1 using 1:2:3:4 with yerrorlines lc rgb '#006d2c' lw 2.5 dt 1 pt 13 ps 1.1 title columnheader(1), \
     'python-host-2.dat' index 2 using 1:2:3:4 with yerrorlines lc rgb '#3182bd' lw 2.5 dt 1 pt 7 ps 1.1 title columnheader(1), \
     'python-host-2.dat' index 3 using 1:2:3:4 with yerrorlines lc rgb '#fd8d3c' lw 1.8 dt 2 pt 8 ps 1.1 title columnheader(1)
unset key
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
unset format
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set tmargin at screen 1
set bmargin at screen 0.8700
plot 'python-host-2.dat' index 4 using 1:2:3 with labels font ',15' notitle, \
     'python-host-2.dat' index 5 using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle
unset multiplot

