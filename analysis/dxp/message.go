package dxp

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// DefaultPort is DXP's registered TCP port.
const DefaultPort = 27531

// MaxMessageBytes is the longest message the protocol allows, without its
// NUL terminator ("character strings of 1 to 127 characters"; Moby Dam's
// buffer holds exactly that).
const MaxMessageBytes = 127

// MaxChatBytes is the longest CHAT text (the message less its header).
const MaxChatBytes = MaxMessageBytes - 1

// NameBytes is the width of the program name in GAMEREQ and GAMEACC.
const NameBytes = 32

// Version is the only DXP version ("01").
const Version = 1

// Kind is a message's header byte.
type Kind byte

// The message kinds.
const (
	KindChat    Kind = 'C'
	KindGameReq Kind = 'R'
	KindGameAcc Kind = 'A'
	KindMove    Kind = 'M'
	KindGameEnd Kind = 'E'
	KindBackReq Kind = 'B'
	KindBackAcc Kind = 'K'
)

// String is the protocol's name of the kind (GAMEREQ, MOVE, ...).
func (k Kind) String() string {
	switch k {
	case KindChat:
		return "CHAT"
	case KindGameReq:
		return "GAMEREQ"
	case KindGameAcc:
		return "GAMEACC"
	case KindMove:
		return "MOVE"
	case KindGameEnd:
		return "GAMEEND"
	case KindBackReq:
		return "BACKREQ"
	case KindBackAcc:
		return "BACKACC"
	}
	return "unknown message " + escByte(byte(k))
}

// Message is one of Chat, GameReq, GameAcc, Move, GameEnd, BackReq,
// BackAcc (values, not pointers).
type Message interface {
	Kind() Kind
	// appendTo writes the message (without its NUL) after dst, checking
	// every field.
	appendTo(dst []byte) ([]byte, error)
}

// ErrMalformed: a message that breaks the protocol's layout (a field of
// the wrong width, a digit that is not one, a value out of range). Every
// such error is a *MessageError.
var ErrMalformed = errors.New("dxp: malformed message")

// MessageError names the message and the field that is wrong, and quotes
// the message (capped).
type MessageError struct {
	Kind  Kind   // header of the message (0 for an empty one)
	Field string // "header", "version", "initiator name", "thinking time", ...
	Text  string // the message as read (or as marshalled so far), capped
	Why   string // what is wrong
}

func (e *MessageError) Error() string {
	msg := e.Kind.String()
	if e.Kind == 0 {
		msg = "empty message"
	}
	s := fmt.Sprintf("dxp: malformed %s: %s: %s", msg, e.Field, e.Why)
	if e.Text != "" {
		s += fmt.Sprintf(" (message %s)", quote(e.Text))
	}
	return s
}

// Unwrap makes errors.Is(err, ErrMalformed) hold.
func (e *MessageError) Unwrap() error { return ErrMalformed }

// quote quotes s for a message, cut to 140 bytes on a rune boundary, with
// every byte outside printable ASCII escaped (escBytes): DXP is ASCII, and
// what a peer sent goes back to it in a CHAT and to the terminal.
func quote(s string) string { return escBytes([]byte(pdn.Clip(s, 140))) }

// escBytes quotes b between double quotes, printable ASCII as it is
// (a quote and a backslash escaped), every other byte as \xNN.
func escBytes(b []byte) string {
	out := make([]byte, 0, len(b)+2)
	out = append(out, '"')
	for _, c := range b {
		out = appendEsc(out, c, '"')
	}
	return string(append(out, '"'))
}

// escByte quotes one byte between single quotes as escBytes does.
func escByte(c byte) string {
	return string(appendEsc([]byte{'\''}, c, '\'')) + "'"
}

func appendEsc(dst []byte, c, q byte) []byte {
	switch {
	case c == q || c == '\\':
		return append(dst, '\\', c)
	case c >= 0x20 && c < 0x7f:
		return append(dst, c)
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'x', hex[c>>4], hex[c&15])
}

// Chat is free text (1..126 bytes; the protocol has no other rule).
type Chat struct{ Text string }

// AccCode is GAMEACC's acceptance code.
type AccCode int

// The acceptance codes.
const (
	Accepted     AccCode = 0 // the Follower plays
	RefusedVer   AccCode = 1 // not this protocol version
	Refused      AccCode = 2 // not this game (time, position), but another
	RefusedGames AccCode = 3 // no game at all
)

func (c AccCode) String() string {
	switch c {
	case Accepted:
		return "accepted"
	case RefusedVer:
		return "refused (protocol version)"
	case Refused:
		return "refused (this game)"
	case RefusedGames:
		return "refused (no games at all)"
	}
	return "acceptance code " + strconv.Itoa(int(c))
}

// GameReq asks the Follower for a game: 'R', version (2 digits),
// Initiator name (32, blank padded), Follower colour ('W' or 'Z'),
// thinking time in minutes (3 digits), number of moves (3 digits, 000 = no
// limit), 'A' (the normal start, nothing follows) or 'B' followed by the
// colour to move and 50 squares ('w' 'z' men, 'W' 'Z' kings, 'e' empty).
type GameReq struct {
	Version  int         // 0..99; the protocol knows only 1
	Name     string      // Initiator's name, at most 32 bytes (trailing blanks are padding)
	Follower rules.Color // the colour the Follower plays
	Minutes  int         // thinking time of each side for the whole game, 0..999
	Moves    int         // moves to play in that time, 0..999 (0: no limit)
	// Setup is true for 'B': Position is the start. Otherwise the game
	// starts from the International start position (Start()).
	Setup    bool
	Position rules.Position
}

// Start is the game's start position: Position when Setup, else the
// International start.
func (r *GameReq) Start() rules.Position {
	if r.Setup {
		return r.Position
	}
	return rules.International.StartPosition()
}

// GameAcc answers a GameReq: 'A', Follower name (32), acceptance code.
type GameAcc struct {
	Name string
	Code AccCode
}

// Move is one move: 'M', seconds used (4 digits), from and to squares (2
// digits each), the number of pieces captured (2 digits, at most 20) and
// their squares (2 digits each, in any order).
type Move struct {
	Seconds  int // 0..9999, informational
	From, To int // 1..50
	Captured []int
}

// EndReason is GAMEEND's reason, from its sender's view.
type EndReason int

// The reasons.
const (
	EndUnknown EndReason = 0 // no reason given (always allowed)
	EndLoss    EndReason = 1 // "I give up"
	EndDraw    EndReason = 2
	EndWin     EndReason = 3 // "I win"
)

func (r EndReason) String() string {
	switch r {
	case EndUnknown:
		return "no reason"
	case EndLoss:
		return "sender loses"
	case EndDraw:
		return "draw"
	case EndWin:
		return "sender wins"
	}
	return "reason " + strconv.Itoa(int(r))
}

// Flip is the reason from the other side's view (a loss becomes a win).
func (r EndReason) Flip() EndReason {
	switch r {
	case EndLoss:
		return EndWin
	case EndWin:
		return EndLoss
	}
	return r
}

// GameEnd ends the game: 'E', reason, stop code. The side to move sends
// it instead of a move; the other side acknowledges with a GameEnd of
// reason 0 (echoing the stop code). Stop asks the other program to play no
// further game.
type GameEnd struct {
	Reason EndReason
	Stop   bool
}

// BackReq asks to take moves back to the position where Color is to move
// at move MoveNumber (1..999; the first move of a game is 1): 'B', 3
// digits, 'W' or 'Z'.
type BackReq struct {
	MoveNumber int
	Color      rules.Color
}

// BackCode is BACKACC's code.
type BackCode int

// The BACKACC codes.
const (
	BackAccepted     BackCode = 0
	BackNotSupported BackCode = 1
	BackRefused      BackCode = 2 // any other reason
)

func (c BackCode) String() string {
	switch c {
	case BackAccepted:
		return "accepted"
	case BackNotSupported:
		return "not supported"
	case BackRefused:
		return "refused"
	}
	return "backacc code " + strconv.Itoa(int(c))
}

// BackAcc answers a BackReq: 'K', code.
type BackAcc struct{ Code BackCode }

func (Chat) Kind() Kind    { return KindChat }
func (GameReq) Kind() Kind { return KindGameReq }
func (GameAcc) Kind() Kind { return KindGameAcc }
func (Move) Kind() Kind    { return KindMove }
func (GameEnd) Kind() Kind { return KindGameEnd }
func (BackReq) Kind() Kind { return KindBackReq }
func (BackAcc) Kind() Kind { return KindBackAcc }

// Marshal writes m as it goes on the wire, without the NUL terminator,
// after checking every field (a *MessageError names the first bad one).
func Marshal(m Message) ([]byte, error) {
	if m == nil {
		return nil, &MessageError{Field: "header", Why: "no message"}
	}
	return m.appendTo(make([]byte, 0, 64))
}

// Parse reads one message (without its NUL terminator). Every field is
// checked to the protocol's widths and ranges; an error is a
// *MessageError (wrapping ErrMalformed) naming the message and field.
// Whatever Parse accepts, Marshal writes back byte for byte.
func Parse(b []byte) (Message, error) {
	if len(b) == 0 {
		return nil, &MessageError{Field: "header", Why: "empty message"}
	}
	k := Kind(b[0])
	fail := func(field, why string, args ...any) error {
		return &MessageError{Kind: k, Field: field, Text: string(b), Why: fmt.Sprintf(why, args...)}
	}
	if len(b) > MaxMessageBytes {
		return nil, fail("length", "%d bytes, at most %d", len(b), MaxMessageBytes)
	}
	for i, c := range b {
		if c == 0 {
			return nil, fail("length", "NUL byte at offset %d inside the message", i)
		}
	}
	switch k {
	case KindChat:
		return Chat{Text: string(b[1:])}, nil
	case KindGameReq:
		return parseGameReq(b, fail)
	case KindGameAcc:
		if len(b) != 1+NameBytes+1 {
			return nil, fail("length", "%d bytes, want %d", len(b), 1+NameBytes+1)
		}
		c, ok := digits(b[33:34])
		if !ok {
			return nil, fail("acceptance code", "%s is not 0..3", escByte(b[33]))
		}
		if c > 3 {
			return nil, fail("acceptance code", "%d is not 0..3", c)
		}
		return GameAcc{Name: trimName(b[1:33]), Code: AccCode(c)}, nil
	case KindMove:
		return parseMove(b, fail)
	case KindGameEnd:
		if len(b) != 3 {
			return nil, fail("length", "%d bytes, want 3", len(b))
		}
		r, ok := digits(b[1:2])
		if !ok || r > 3 {
			return nil, fail("reason", "%s is not 0..3", escByte(b[1]))
		}
		if b[2] != '0' && b[2] != '1' {
			return nil, fail("stop code", "%s is not 0 or 1", escByte(b[2]))
		}
		return GameEnd{Reason: EndReason(r), Stop: b[2] == '1'}, nil
	case KindBackReq:
		if len(b) != 5 {
			return nil, fail("length", "%d bytes, want 5", len(b))
		}
		n, ok := digits(b[1:4])
		if !ok || n < 1 {
			return nil, fail("move number", "%s is not 001..999", escBytes(b[1:4]))
		}
		c, ok := parseColor(b[4])
		if !ok {
			return nil, fail("color to move", "%s is not W or Z", escByte(b[4]))
		}
		return BackReq{MoveNumber: n, Color: c}, nil
	case KindBackAcc:
		if len(b) != 2 {
			return nil, fail("length", "%d bytes, want 2", len(b))
		}
		c, ok := digits(b[1:2])
		if !ok || c > 2 {
			return nil, fail("acceptance code", "%s is not 0..2", escByte(b[1]))
		}
		return BackAcc{Code: BackCode(c)}, nil
	}
	return nil, fail("header", "%s is no DXP message type (C R A M E B K)", escByte(b[0]))
}

const (
	reqShort = 1 + 2 + NameBytes + 1 + 3 + 3 + 1 // through the 'A' or 'B': 43 bytes
	reqLong  = reqShort + 1 + 50                 // with the colour and position: 94 bytes
)

func parseGameReq(b []byte, fail func(string, string, ...any) error) (Message, error) {
	if len(b) < reqShort {
		return nil, fail("length", "%d bytes, want %d (start position A) or %d (B)", len(b), reqShort, reqLong)
	}
	var r GameReq
	var ok bool
	if r.Version, ok = digits(b[1:3]); !ok {
		return nil, fail("version", "%s is not two digits", escBytes(b[1:3]))
	}
	r.Name = trimName(b[3:35])
	if r.Follower, ok = parseColor(b[35]); !ok {
		return nil, fail("follower color", "%s is not W or Z", escByte(b[35]))
	}
	if r.Minutes, ok = digits(b[36:39]); !ok {
		return nil, fail("thinking time", "%s is not three digits (minutes)", escBytes(b[36:39]))
	}
	if r.Moves, ok = digits(b[39:42]); !ok {
		return nil, fail("number of moves", "%s is not three digits", escBytes(b[39:42]))
	}
	switch b[42] {
	case 'A':
		if len(b) != reqShort {
			return nil, fail("starting position", "'A' (the normal start) is followed by %d more bytes", len(b)-reqShort)
		}
		return r, nil
	case 'B':
	default:
		return nil, fail("starting position", "%s is not A or B", escByte(b[42]))
	}
	if len(b) != reqLong {
		return nil, fail("position", "%d bytes after 'B', want 51 (colour to move and 50 squares)", len(b)-reqShort)
	}
	side, ok := parseColor(b[43])
	if !ok {
		return nil, fail("color to move first", "%s is not W or Z", escByte(b[43]))
	}
	r.Setup = true
	r.Position = rules.NewPosition(rules.International, side)
	for sq := 1; sq <= 50; sq++ {
		var pc rules.Piece
		switch c := b[43+sq]; c {
		case 'e':
			continue
		case 'w':
			pc = rules.WhiteMan
		case 'W':
			pc = rules.WhiteKing
		case 'z':
			pc = rules.BlackMan
		case 'Z':
			pc = rules.BlackKing
		default:
			return nil, fail("position", "square %d is %s, not one of w z W Z e", sq, escByte(c))
		}
		r.Position.SetPiece(sq, pc)
	}
	return r, nil
}

func parseMove(b []byte, fail func(string, string, ...any) error) (Message, error) {
	if len(b) < 11 {
		return nil, fail("length", "%d bytes, at least 11", len(b))
	}
	var m Move
	var ok bool
	if m.Seconds, ok = digits(b[1:5]); !ok {
		return nil, fail("time", "%s is not four digits (seconds)", escBytes(b[1:5]))
	}
	if m.From, ok = square(b[5:7]); !ok {
		return nil, fail("from field", "%s is not 01..50", escBytes(b[5:7]))
	}
	if m.To, ok = square(b[7:9]); !ok {
		return nil, fail("to field", "%s is not 01..50", escBytes(b[7:9]))
	}
	n, ok := digits(b[9:11])
	if !ok || n > 20 {
		return nil, fail("number captured", "%s is not 00..20", escBytes(b[9:11]))
	}
	if len(b) != 11+2*n {
		return nil, fail("captured pieces", "%d bytes for %d pieces, want %d", len(b)-11, n, 2*n)
	}
	if n > 0 {
		m.Captured = make([]int, n)
	}
	var seen uint64
	for i := range n {
		s, ok := square(b[11+2*i : 13+2*i])
		if !ok {
			return nil, fail("captured pieces", "piece %d: %s is not 01..50", i+1, escBytes(b[11+2*i:13+2*i]))
		}
		if seen&(1<<s) != 0 {
			return nil, fail("captured pieces", "square %d is given twice", s)
		}
		seen |= 1 << s
		m.Captured[i] = s
	}
	return m, nil
}

// digits reads a field of decimal digits.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func square(b []byte) (int, bool) {
	n, ok := digits(b)
	return n, ok && n >= 1 && n <= 50
}

func parseColor(c byte) (rules.Color, bool) {
	switch c {
	case 'W':
		return rules.White, true
	case 'Z':
		return rules.Black, true
	}
	return 0, false
}

func colorByte(c rules.Color) byte {
	if c == rules.Black {
		return 'Z'
	}
	return 'W'
}

// trimName drops the blank padding of a name field.
func trimName(b []byte) string {
	n := len(b)
	for n > 0 && b[n-1] == ' ' {
		n--
	}
	return string(b[:n])
}

// appendNum writes n in exactly w digits.
func appendNum(dst []byte, n, w int) []byte {
	var buf [8]byte
	for i := w - 1; i >= 0; i-- {
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(dst, buf[:w]...)
}

func checkText(k Kind, field, s string, max int, dst []byte) error {
	if len(s) > max {
		return &MessageError{Kind: k, Field: field, Text: string(dst), Why: fmt.Sprintf("%d bytes, at most %d", len(s), max)}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return &MessageError{Kind: k, Field: field, Text: string(dst), Why: fmt.Sprintf("NUL byte at offset %d", i)}
		}
	}
	return nil
}

func (m Chat) appendTo(dst []byte) ([]byte, error) {
	dst = append(dst, byte(KindChat))
	if err := checkText(KindChat, "text", m.Text, MaxChatBytes, dst); err != nil {
		return nil, err
	}
	return append(dst, m.Text...), nil
}

func appendName(k Kind, field, name string, dst []byte) ([]byte, error) {
	if err := checkText(k, field, name, NameBytes, dst); err != nil {
		return nil, err
	}
	dst = append(dst, name...)
	for range NameBytes - len(name) {
		dst = append(dst, ' ')
	}
	return dst, nil
}

func (r GameReq) appendTo(dst []byte) ([]byte, error) {
	bad := func(field, why string, args ...any) error {
		return &MessageError{Kind: KindGameReq, Field: field, Text: string(dst), Why: fmt.Sprintf(why, args...)}
	}
	dst = append(dst, byte(KindGameReq))
	if r.Version < 0 || r.Version > 99 {
		return nil, bad("version", "%d is not 0..99", r.Version)
	}
	dst = appendNum(dst, r.Version, 2)
	dst, err := appendName(KindGameReq, "initiator name", r.Name, dst)
	if err != nil {
		return nil, err
	}
	if r.Follower != rules.White && r.Follower != rules.Black {
		return nil, bad("follower color", "colour %d", r.Follower)
	}
	dst = append(dst, colorByte(r.Follower))
	if r.Minutes < 0 || r.Minutes > 999 {
		return nil, bad("thinking time", "%d minutes is not 0..999", r.Minutes)
	}
	dst = appendNum(dst, r.Minutes, 3)
	if r.Moves < 0 || r.Moves > 999 {
		return nil, bad("number of moves", "%d is not 0..999", r.Moves)
	}
	dst = appendNum(dst, r.Moves, 3)
	if !r.Setup {
		return append(dst, 'A'), nil
	}
	p := &r.Position
	if p.Variant() != rules.International {
		name := "no variant (zero Position)"
		if p.Variant() != nil {
			name = p.Variant().Name
		}
		return nil, bad("position", "%s, DXP plays International draughts", name)
	}
	dst = append(dst, 'B', colorByte(p.SideToMove()))
	for sq := 1; sq <= 50; sq++ {
		dst = append(dst, "ewWzZ"[p.Piece(sq)])
	}
	return dst, nil
}

func (a GameAcc) appendTo(dst []byte) ([]byte, error) {
	dst = append(dst, byte(KindGameAcc))
	dst, err := appendName(KindGameAcc, "follower name", a.Name, dst)
	if err != nil {
		return nil, err
	}
	if a.Code < 0 || a.Code > 3 {
		return nil, &MessageError{Kind: KindGameAcc, Field: "acceptance code", Text: string(dst), Why: fmt.Sprintf("%d is not 0..3", a.Code)}
	}
	return append(dst, byte('0'+a.Code)), nil
}

func (m Move) appendTo(dst []byte) ([]byte, error) {
	bad := func(field, why string, args ...any) error {
		return &MessageError{Kind: KindMove, Field: field, Text: string(dst), Why: fmt.Sprintf(why, args...)}
	}
	dst = append(dst, byte(KindMove))
	if m.Seconds < 0 || m.Seconds > 9999 {
		return nil, bad("time", "%d seconds is not 0..9999", m.Seconds)
	}
	dst = appendNum(dst, m.Seconds, 4)
	for _, f := range []struct {
		name string
		sq   int
	}{{"from field", m.From}, {"to field", m.To}} {
		if f.sq < 1 || f.sq > 50 {
			return nil, bad(f.name, "square %d is not 1..50", f.sq)
		}
		dst = appendNum(dst, f.sq, 2)
	}
	if len(m.Captured) > 20 {
		return nil, bad("number captured", "%d pieces, at most 20", len(m.Captured))
	}
	dst = appendNum(dst, len(m.Captured), 2)
	var seen uint64
	for _, s := range m.Captured {
		if s < 1 || s > 50 {
			return nil, bad("captured pieces", "square %d is not 1..50", s)
		}
		if seen&(1<<s) != 0 {
			return nil, bad("captured pieces", "square %d is given twice", s)
		}
		seen |= 1 << s
		dst = appendNum(dst, s, 2)
	}
	return dst, nil
}

func (e GameEnd) appendTo(dst []byte) ([]byte, error) {
	dst = append(dst, byte(KindGameEnd))
	if e.Reason < 0 || e.Reason > 3 {
		return nil, &MessageError{Kind: KindGameEnd, Field: "reason", Text: string(dst), Why: fmt.Sprintf("%d is not 0..3", e.Reason)}
	}
	stop := byte('0')
	if e.Stop {
		stop = '1'
	}
	return append(dst, byte('0'+e.Reason), stop), nil
}

func (r BackReq) appendTo(dst []byte) ([]byte, error) {
	dst = append(dst, byte(KindBackReq))
	if r.MoveNumber < 1 || r.MoveNumber > 999 {
		return nil, &MessageError{Kind: KindBackReq, Field: "move number", Text: string(dst), Why: fmt.Sprintf("%d is not 1..999", r.MoveNumber)}
	}
	if r.Color != rules.White && r.Color != rules.Black {
		return nil, &MessageError{Kind: KindBackReq, Field: "color to move", Text: string(dst), Why: fmt.Sprintf("colour %d", r.Color)}
	}
	return append(appendNum(dst, r.MoveNumber, 3), colorByte(r.Color)), nil
}

func (a BackAcc) appendTo(dst []byte) ([]byte, error) {
	dst = append(dst, byte(KindBackAcc))
	if a.Code < 0 || a.Code > 2 {
		return nil, &MessageError{Kind: KindBackAcc, Field: "acceptance code", Text: string(dst), Why: fmt.Sprintf("%d is not 0..2", a.Code)}
	}
	return append(dst, byte('0'+a.Code)), nil
}

// fit cuts s to at most n bytes (n >= 3) on a rune boundary, marking a cut
// with "..." (pdn.Clip, whose mark comes on top of its n).
func fit(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return pdn.Clip(s, n-3)
}
