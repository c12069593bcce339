package explorer

import "bytes"

// prettyWidth is the longest value pretty writes on one line.
const prettyWidth = 160

// pretty lays out compact JSON for people reading curl's output: a value
// whose one-line form (with a space after each colon and comma) is at most
// prettyWidth bytes stays on one line, whatever its indentation; a longer
// object or array gets one member per line, indented by two spaces. The
// objects of an array are laid out alike: all on one line each, or all
// expanded.
func pretty(compact []byte) []byte {
	var out bytes.Buffer
	prettyValue(&out, compact, 0, false)
	out.WriteByte('\n')
	return out.Bytes()
}

func prettyValue(out *bytes.Buffer, v []byte, depth int, expand bool) {
	oneLine := spaced(v)
	if !expand && len(oneLine) <= prettyWidth || v[0] != '{' && v[0] != '[' || len(v) == 2 {
		out.Write(oneLine)
		return
	}
	members := split(v[1 : len(v)-1])
	expandAll := false
	if v[0] == '[' {
		for _, m := range members {
			if m[0] == '{' && len(spaced(m)) > prettyWidth {
				expandAll = true
			}
		}
	}
	out.WriteByte(v[0])
	for i, m := range members {
		out.WriteByte('\n')
		out.Write(bytes.Repeat([]byte("  "), depth+1))
		if v[0] == '{' {
			k := keyEnd(m)
			out.Write(m[:k])
			out.WriteString(": ")
			m = m[k+1:]
		}
		prettyValue(out, m, depth+1, expandAll && m[0] == '{')
		if i < len(members)-1 {
			out.WriteByte(',')
		}
	}
	out.WriteByte('\n')
	out.Write(bytes.Repeat([]byte("  "), depth))
	out.WriteByte(v[len(v)-1])
}

// spaced is compact JSON with a space after every colon and comma that is
// not inside a string.
func spaced(v []byte) []byte {
	out := make([]byte, 0, len(v)+len(v)/8)
	inString := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		out = append(out, c)
		switch {
		case inString && c == '\\':
			i++
			out = append(out, v[i])
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			out = append(out, ' ')
		}
	}
	return out
}

// split cuts the inside of a compact object or array at its top-level
// commas.
func split(v []byte) [][]byte {
	var out [][]byte
	depth, start, inString := 0, 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	if start < len(v) {
		out = append(out, v[start:])
	}
	return out
}

// keyEnd is the index of the colon after the key that m, an object
// member, starts with.
func keyEnd(m []byte) int {
	for i := 1; i < len(m); i++ {
		switch m[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(m)
}
