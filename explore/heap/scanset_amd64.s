#include "textflag.h"

// The vector scans of the sparse-space sweep (scanset_amd64.go). Both
// hold the values looked for as a 512-bit set, 64 bytes in memory at DX
// and in Z0; Z3 and Z4 hold 1 and 7 in each 32-bit lane; R8 counts the
// values still to find.

// LOADSET loads the set into Z0, and the constants into Z3 and Z4.
#define LOADSET \
	VMOVDQU64 (DX), Z0; \
	MOVL $1, R9; \
	VPBROADCASTD R9, Z3; \
	MOVL $7, R9; \
	VPBROADCASTD R9, Z4

// TESTLANES sets in k the 32-bit lanes of x (nim-sums below 512) whose
// value is in the set: byte v>>3 of Z0 (VPERMB), shifted right by v&7,
// its low bit tested. idx and sh are scratch registers.
#define TESTLANES(x, idx, sh, k) \
	VPSRLD $3, x, idx; \
	VPERMB Z0, idx, idx; \
	VPANDD Z4, x, sh; \
	VPSRLVD sh, idx, idx; \
	VPTESTMD Z3, idx, k

// TAKE clears value v (in R13) from the set in memory; when it was there,
// it clears it in Z0 too (in its 64-bit lane only: reloading Z0 would wait
// for the store) and goes on, else it jumps to absent. R9 and CX are
// scratch.
#define TAKE(absent) \
	ANDL $511, R13; \
	MOVQ R13, R9; \
	SHRQ $6, R9; \
	MOVQ (DX)(R9*8), CX; \
	BTRQ R13, CX; \
	JCC absent; \
	MOVQ CX, (DX)(R9*8); \
	XORL CX, CX; \
	BTSQ R9, CX; \
	KMOVW CX, K2; \
	XORL CX, CX; \
	BTSQ R13, CX; \
	VPBROADCASTQ CX, Z6; \
	VPANDNQ Z0, Z6, K2, Z0

// func scanSetAVX512(lo, hi *uint32, n int, set *[8]uint64, left int, first *uint32, base int) (rest, scanned int)
//
// Thirty-two splits a turn, as two registers of sixteen: v = lo[i] ^ hi[i]
// in each lane, tested against the set (TESTLANES). A turn with a lane
// set goes through those lanes in order, reading v again from lo and hi,
// against the set in memory, which is the one that counts (a value twice
// in a turn is found once), takes each value found out of the set (TAKE),
// and notes base + i in first[v] when first is not nil. Sixteen a turn,
// then the rest as the lanes of one, at the end.
TEXT ·scanSetAVX512(SB), NOSPLIT, $0-72
	MOVQ lo+0(FP), SI
	MOVQ hi+8(FP), DI
	MOVQ set+24(FP), DX
	MOVQ left+32(FP), R8
	XORQ AX, AX
	LOADSET

block:
	LEAQ 32(AX), R10
	CMPQ R10, n+16(FP)
	JGT  block16
	VMOVDQU32 (SI)(AX*4), Z1
	VMOVDQU32 64(SI)(AX*4), Z7
	VPXORD    (DI)(AX*4), Z1, Z1
	VPXORD    64(DI)(AX*4), Z7, Z7
	TESTLANES(Z1, Z2, Z5, K1)
	TESTLANES(Z7, Z8, Z9, K3)
	KORTESTW  K1, K3
	JNZ       hits32
	MOVQ      R10, AX
	JMP       block

hits32:
	KMOVW K1, R11
	KMOVW K3, R12
	SHLL  $16, R12
	ORL   R12, R11
	JMP   lane

block16:
	LEAQ 16(AX), R10
	CMPQ R10, n+16(FP)
	JGT  tail
	VMOVDQU32 (SI)(AX*4), Z1
	VPXORD    (DI)(AX*4), Z1, Z1
	TESTLANES(Z1, Z2, Z5, K1)
	KORTESTW  K1, K1
	JNZ       hits
	MOVQ      R10, AX
	JMP       tail

hits:
	KMOVW K1, R11

lane:
	TZCNTL R11, R12
	LEAQ   (AX)(R12*1), BX
	MOVL   (SI)(BX*4), R13
	XORL   (DI)(BX*4), R13
	TAKE(nextlane)

	// first[v] = base + i, when first is not nil.
	MOVQ  first+40(FP), R9
	TESTQ R9, R9
	JZ    counted
	ADDQ  base+48(FP), BX
	MOVL  BX, (R9)(R13*4)

counted:
	DECQ R8
	JZ   foundlane

nextlane:
	BLSRL R11, R11
	JNZ   lane
	MOVQ  R10, AX
	JMP   block

foundlane:
	LEAQ 1(AX)(R12*1), AX
	JMP  done

tail:
	// The last splits, fewer than sixteen, as the lanes of a turn that
	// all have a bit set.
	MOVQ n+16(FP), R10
	MOVQ R10, R9
	SUBQ AX, R9
	JLE  end
	XORL R11, R11
	BTSQ R9, R11
	DECQ R11
	JMP  lane

end:
	MOVQ n+16(FP), AX

done:
	MOVQ R8, rest+56(FP)
	MOVQ AX, scanned+64(FP)
	VZEROUPPER
	RET

// func scanSet2AVX512(lo, hi0, hi1 *uint32, n int, set *[8]uint64, left int) (rest, scanned int)
//
// scanSetAVX512 on two digits' splits at once, in the order the
// one-worker sweep takes them: lo[i] ^ hi0[i], then lo[i] ^ hi1[i], for
// i = 0, 1, … Sixteen i a turn; a turn's lanes go in that order (the two
// masks interleaved with PDEP: lane 2j for hi0 at i = AX + j, 2j + 1 for
// hi1). scanned is i + 1 for the i where the last value was found, n when
// values are left.
TEXT ·scanSet2AVX512(SB), NOSPLIT, $0-64
	MOVQ lo+0(FP), SI
	MOVQ hi0+8(FP), DI
	MOVQ hi1+16(FP), BX
	MOVQ set+32(FP), DX
	MOVQ left+40(FP), R8
	XORQ AX, AX
	LOADSET

block2:
	LEAQ 16(AX), R10
	CMPQ R10, n+24(FP)
	JGT  tail2
	VMOVDQU32 (SI)(AX*4), Z1
	VPXORD    (BX)(AX*4), Z1, Z7
	VPXORD    (DI)(AX*4), Z1, Z1
	TESTLANES(Z1, Z2, Z5, K1)
	TESTLANES(Z7, Z8, Z9, K3)
	KORTESTW  K1, K3
	JNZ       hits2
	MOVQ      R10, AX
	JMP       block2

hits2:
	KMOVW K1, R11
	KMOVW K3, R12
	MOVL  $0x55555555, CX
	PDEPL CX, R11, R11
	MOVL  $0xaaaaaaaa, CX
	PDEPL CX, R12, R12
	ORL   R12, R11

lane2:
	TZCNTL R11, R12
	MOVL   R12, R9
	SHRL   $1, R9
	ADDQ   AX, R9
	MOVL   (SI)(R9*4), R13
	BTL    $0, R12
	JCS    lane2hi1
	XORL   (DI)(R9*4), R13
	JMP    lane2v

lane2hi1:
	XORL (BX)(R9*4), R13

lane2v:
	TAKE(lane2next)
	DECQ R8
	JZ   found2

lane2next:
	BLSRL R11, R11
	JNZ   lane2
	MOVQ  R10, AX
	JMP   block2

found2:
	SHRL $1, R12
	LEAQ 1(AX)(R12*1), AX
	JMP  done2

tail2:
	// The last i, fewer than sixteen: their 2(n − AX) lanes all set.
	MOVQ n+24(FP), R10
	MOVQ R10, R9
	SUBQ AX, R9
	JLE  end2
	SHLQ $1, R9
	XORL R11, R11
	BTSQ R9, R11
	DECQ R11
	JMP  lane2

end2:
	MOVQ n+24(FP), AX

done2:
	MOVQ R8, rest+48(FP)
	MOVQ AX, scanned+56(FP)
	VZEROUPPER
	RET
