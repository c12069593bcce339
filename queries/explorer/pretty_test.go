package explorer

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestPretty: the layout keeps the JSON (strings with quotes, commas,
// colons and brackets included), puts short values on one line and long
// ones one member per line.
func TestPretty(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200)
	for _, v := range []any{
		map[string]any{"a": 1, "b": []int{1, 2, 3}},
		map[string]any{"s": `he said "a, b: [c] {d}" \ ok`, "t": long, "n": nil, "list": []any{long, map[string]any{"k\"": "v,:"}}},
		[]any{},
		map[string]any{},
		"plain",
		[]any{map[string]any{"deep": []any{[]any{long}, []int{}}}},
	} {
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out := pretty(compact)
		var back any
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: %v\n%s", compact, err, out)
		}
		var want any
		json.Unmarshal(compact, &want)
		if !reflect.DeepEqual(back, want) {
			t.Errorf("%s became\n%s", compact, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if len(strings.TrimLeft(line, " ")) > prettyWidth && !strings.Contains(line, long) {
				t.Errorf("line of %d bytes: %s", len(line), line)
			}
		}
	}
	got := string(pretty([]byte(`{"a":[1,2,3],"b":"x, y: z"}`)))
	if want := `{"a": [1, 2, 3], "b": "x, y: z"}` + "\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = string(pretty([]byte(`{"moves":["` + long + `",1]}`)))
	if want := "{\n  \"moves\": [\n    \"" + long + "\",\n    1\n  ]\n}\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Rows of a list look alike: one too long expands the others.
	got = string(pretty([]byte(`[{"a":1},{"b":"` + long + `"}]`)))
	if want := "[\n  {\n    \"a\": 1\n  },\n  {\n    \"b\": \"" + long + "\"\n  }\n]\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !bytes.HasSuffix(pretty([]byte(`1`)), []byte("1\n")) {
		t.Error("a number")
	}
}
