package queries

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var datePattern = regexp.MustCompile(`^\d{4}([./-]\d{2}([./-]\d{2})?)?$`)

// DateBound checks a date that bounds a selection (export's --from and
// --to, the explorer's from and to): YYYY, YYYY.MM or YYYY.MM.DD, with -
// or / also taken as the separator. It returns it as games.date writes
// dates (dots), so that it compares as text with them. A month outside
// 01-12 or a day outside 01-31 is an error: compared as text it would
// bound nothing a user meant ("1995.13").
func DateBound(s string) (string, error) {
	if !datePattern.MatchString(s) {
		return "", fmt.Errorf("want YYYY, YYYY.MM or YYYY.MM.DD")
	}
	d := strings.NewReplacer("-", ".", "/", ".").Replace(s)
	if len(d) >= 7 {
		if m, _ := strconv.Atoi(d[5:7]); m < 1 || m > 12 {
			return "", fmt.Errorf("month %s is not 01-12", d[5:7])
		}
	}
	if len(d) == 10 {
		if day, _ := strconv.Atoi(d[8:10]); day < 1 || day > 31 {
			return "", fmt.Errorf("day %s is not 01-31", d[8:10])
		}
	}
	return d, nil
}
