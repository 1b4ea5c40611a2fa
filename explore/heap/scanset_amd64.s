#include "textflag.h"

// func scanSetAVX512(lo, hi *uint32, n int, set *[8]uint64, left int, first *uint32, base int) (rest, scanned int)
//
// Thirty-two splits a turn, as two registers of sixteen: v = lo[i] ^ hi[i]
// in each 32-bit lane, the byte v>>3 of the set fetched with VPERMB (the
// set is 64 bytes, one register, Z0), shifted right by v&7, its low bit
// tested. A turn with a lane set goes through those lanes in order,
// reading v again from lo and hi, against the set in memory, which is the
// one that counts (a value twice in a turn is found once), and clears the
// bit of each value found in Z0 too, and notes base + i in first[v] when
// first is not nil. Sixteen a turn, then the rest as the
// lanes of one, at the end.
TEXT ·scanSetAVX512(SB), NOSPLIT, $0-72
	MOVQ lo+0(FP), SI
	MOVQ hi+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ set+24(FP), DX
	MOVQ left+32(FP), R8
	XORQ AX, AX
	VMOVDQU64 (DX), Z0
	MOVL $1, R9
	VPBROADCASTD R9, Z3
	MOVL $7, R9
	VPBROADCASTD R9, Z4

block:
	LEAQ 32(AX), R10
	CMPQ R10, CX
	JGT  block16
	VMOVDQU32 (SI)(AX*4), Z1
	VMOVDQU32 64(SI)(AX*4), Z7
	VPXORD    (DI)(AX*4), Z1, Z1
	VPXORD    64(DI)(AX*4), Z7, Z7
	VPSRLD    $3, Z1, Z2
	VPSRLD    $3, Z7, Z8
	VPERMB    Z0, Z2, Z2
	VPERMB    Z0, Z8, Z8
	VPANDD    Z4, Z1, Z5
	VPANDD    Z4, Z7, Z9
	VPSRLVD   Z5, Z2, Z2
	VPSRLVD   Z9, Z8, Z8
	VPTESTMD  Z3, Z2, K1
	VPTESTMD  Z3, Z8, K3
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
	CMPQ R10, CX
	JGT  tail
	VMOVDQU32 (SI)(AX*4), Z1
	VPXORD    (DI)(AX*4), Z1, Z1
	VPSRLD    $3, Z1, Z2
	VPERMB    Z0, Z2, Z2
	VPANDD    Z4, Z1, Z5
	VPSRLVD   Z5, Z2, Z2
	VPTESTMD  Z3, Z2, K1
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
	ANDL   $511, R13 // a nim-sum past 511 (not in the contract) stays in the set
	MOVQ   R13, BX
	SHRQ   $6, BX
	MOVQ   (DX)(BX*8), R9
	BTRQ   R13, R9
	JCC    nextlane
	MOVQ   R9, (DX)(BX*8)

	// The same bit cleared in Z0, in its 64-bit lane only: no load of
	// the set just stored, which would wait for the store.
	XORL         R9, R9
	BTSQ         BX, R9
	KMOVW        R9, K2
	XORL         R9, R9
	BTSQ         R13, R9
	VPBROADCASTQ R9, Z6
	VPANDNQ      Z0, Z6, K2, Z0

	// first[v] = base + i, when first is not nil.
	MOVQ  first+40(FP), R9
	TESTQ R9, R9
	JZ    counted
	LEAQ  (AX)(R12*1), BX
	ADDQ  base+48(FP), BX
	MOVL  BX, (R9)(R13*4)

counted:
	DECQ         R8
	JZ           foundlane

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
	MOVQ  CX, R9
	SUBQ  AX, R9
	JLE   end
	XORL  R11, R11
	BTSQ  R9, R11
	DECQ  R11
	MOVQ  CX, R10
	JMP   lane

end:
	MOVQ CX, AX

done:
	MOVQ R8, rest+56(FP)
	MOVQ AX, scanned+64(FP)
	VZEROUPPER
	RET
