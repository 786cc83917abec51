// Hostile: 01 solved (the Go solution, spliced in at the marker), and it adds constants whose compile would
// need terabytes.
package firsthandler

// {{SOLUTION}}

// Constants that double 40 times: the compiler holds them all, some 16 TB.
const s0 = "xxxxxxxxxxxxxxxx"
const s1 = s0 + s0
const s2 = s1 + s1
const s3 = s2 + s2
const s4 = s3 + s3
const s5 = s4 + s4
const s6 = s5 + s5
const s7 = s6 + s6
const s8 = s7 + s7
const s9 = s8 + s8
const s10 = s9 + s9
const s11 = s10 + s10
const s12 = s11 + s11
const s13 = s12 + s12
const s14 = s13 + s13
const s15 = s14 + s14
const s16 = s15 + s15
const s17 = s16 + s16
const s18 = s17 + s17
const s19 = s18 + s18
const s20 = s19 + s19
const s21 = s20 + s20
const s22 = s21 + s21
const s23 = s22 + s22
const s24 = s23 + s23
const s25 = s24 + s24
const s26 = s25 + s25
const s27 = s26 + s26
const s28 = s27 + s27
const s29 = s28 + s28
const s30 = s29 + s29
const s31 = s30 + s30
const s32 = s31 + s31
const s33 = s32 + s32
const s34 = s33 + s33
const s35 = s34 + s34
const s36 = s35 + s35
const s37 = s36 + s36
const s38 = s37 + s37
const s39 = s38 + s38
const s40 = s39 + s39

var huge = len(s40)
