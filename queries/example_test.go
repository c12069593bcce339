package queries_test

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/queries"
)

// Every named query is a .sql file that also runs in psql. Bind fills its
// defaults and passes every value as a query parameter, never as SQL text.
func ExampleQuery_Bind() {
	q, err := queries.Lookup("events")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, args, err := q.Bind(map[string]string{"variant": "international", "limit": "10"})
	fmt.Println(q.Name, len(args) > 0, err)
	_, err = queries.Lookup("no_such_query")
	fmt.Println(err)
	// Output:
	// events true <nil>
	// no such query "no_such_query" (draughtsdb query --list shows them)
}

// DateBound checks a date bound of export's --from/--to and the explorer:
// a year, a year and month, or a whole date.
func ExampleDateBound() {
	for _, s := range []string{"1995", "1995.07", "1995.13"} {
		b, err := queries.DateBound(s)
		fmt.Printf("%q error=%v\n", b, err != nil)
	}
	// Output:
	// "1995" error=false
	// "1995.07" error=false
	// "" error=true
}
