package pdn

import "strings"

// fullGameTypes gives the PDN 3.0 full form
// number,startColour,width,height,notation+corner,invert for the variants
// whose board and notation are fixed by their number. Only variants whose
// full form is certain are listed; the others are left as written.
var fullGameTypes = map[string]string{
	"20": "20,W,10,10,N2,0", // International
	"21": "21,B,8,8,N1,0",   // English / American checkers
	"22": "22,W,8,8,N2,1",   // Italian (mirrored board)
	"23": "23,B,8,8,N1,0",   // Pool (American pool checkers)
	"24": "24,W,8,8,N1,1",   // Spanish (mirrored board)
	"25": "25,W,8,8,A0,0",   // Russian
	"26": "26,W,8,8,A0,0",   // Brazilian
	"27": "27,W,12,12,N2,0", // Canadian
	"28": "28,W,8,8,N1,1",   // Portuguese (as Spanish)
	"29": "29,W,8,8,A0,0",   // Czech
	"30": "30,W,8,8,A0,0",   // Turkish
	"31": "31,B,8,8,N2,0",   // Thai
	"40": "40,W,10,10,N2,0", // Frisian
}

// FullGameType returns the full form of a GameType tag value: "20" becomes
// "20,W,10,10,N2,0". Values already in full form, unknown numbers and
// anything else are returned unchanged (trimmed of surrounding spaces).
func FullGameType(gt string) string {
	gt = strings.TrimSpace(gt)
	if full, ok := fullGameTypes[gt]; ok {
		return full
	}
	return gt
}
