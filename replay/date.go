package replay

import (
	"strconv"
	"strings"
)

// CleanDate writes a PDN date as YYYY.MM.DD with ?? for unknown parts. It
// reads PDN's form and the forms of it found in real files that put the
// year first, written with four digits: 1841-??-??, 1950., 1950,
// 2005.03.12, 2005/03/12, 2001.5.7, and a range such as 1950-1951 or
// 2001.05.01-2001.05.07 (its first date). Nothing else is guessed at: a
// date whose year comes last (12.03.2005: day or month first?) or has two
// digits (03.07.20: 2003, 1920 or 2020?) is not read. ok is false when
// the date is not read whole; the result then has ?? for what was not
// read ("????.??.??" for nothing).
func CleanDate(s string) (clean string, ok bool) {
	if isCleanDate(s) {
		return s, true // the common case, without allocating
	}
	// YYYY-MM-DD and YYYY/MM/DD with digits or ??: one allocation.
	if len(s) == 10 && (s[4] == '-' || s[4] == '/') && s[7] == s[4] {
		b := []byte(s)
		b[4], b[7] = '.', '.'
		if c := string(b); isCleanDate(c) {
			return c, true
		}
	}
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "?.-/ ") == "" {
		return "????.??.??", s == "" || strings.Trim(s, "?.-/ ") == ""
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '/' || r == ' ' })
	if len(fields) == 0 || len(fields[0]) != 4 {
		return "????.??.??", false
	}
	// A range of years "1950-1951": keep the first.
	if len(fields) == 2 && len(fields[0]) == 4 && len(fields[1]) == 4 {
		fields = fields[:1]
	}
	year, ok := part(fields, 0, 4, 1, 9999)
	if !ok {
		return "????.??.??", false
	}
	month, okM := part(fields, 1, 2, 1, 12)
	day, okD := part(fields, 2, 2, 1, 31)
	if len(fields) > 1 && !okM && strings.Trim(fields[1], "?") != "" {
		return year + ".??.??", false
	}
	if !okM {
		return year + ".??.??", true
	}
	if !okD {
		return year + "." + month + ".??", len(fields) < 3 || strings.Trim(fields[2], "?") == ""
	}
	return year + "." + month + "." + day, true
}

// part returns fields[i] zero-padded to width if it is a number in
// [lo, hi].
func part(fields []string, i, width, lo, hi int) (string, bool) {
	if i >= len(fields) {
		return strings.Repeat("?", width), false
	}
	f := fields[i]
	n := 0
	for j := 0; j < len(f); j++ {
		if !isDigit(f[j]) {
			return strings.Repeat("?", width), false
		}
		n = n*10 + int(f[j]-'0')
	}
	if f == "" || n < lo || n > hi || len(f) > width {
		return strings.Repeat("?", width), false
	}
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s, true
}

// isCleanDate reports whether s is already YYYY.MM.DD with digits or ??.
func isCleanDate(s string) bool {
	if len(s) != 10 || s[4] != '.' || s[7] != '.' {
		return false
	}
	digits := func(p string) bool {
		for i := 0; i < len(p); i++ {
			if !isDigit(p[i]) {
				return false
			}
		}
		return true
	}
	y, m, d := s[:4], s[5:7], s[8:]
	if !digits(y) || y == "0000" {
		return false
	}
	switch {
	case m == "??":
		return d == "??"
	case !digits(m) || m < "01" || m > "12":
		return false
	}
	return d == "??" || digits(d) && d >= "01" && d <= "31"
}

// isDateRange reports whether a Date tag that CleanDate read holds two
// dates (2004.10.27 - 2004.11.01, 1950-1951), of which it kept the first.
// It runs for every game, so it counts fields without allocating.
func isDateRange(s string) bool {
	if isCleanDate(s) {
		return false // the common case
	}
	var fields, first, second, secondDigits = 0, 0, 0, true
	inField := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' || c == '-' || c == '/' || c == ' ' {
			inField = false
			continue
		}
		if !inField {
			inField = true
			fields++
		}
		switch fields {
		case 1:
			first++
		case 2:
			second++
			secondDigits = secondDigits && isDigit(c)
		}
	}
	if fields > 3 {
		return true
	}
	return fields == 2 && first == 4 && second == 4 && secondDigits
}
