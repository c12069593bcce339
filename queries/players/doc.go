// Package players tells who played: it joins the spellings of a name
// ("Sijbrands,T.", "T. Sijbrands", "Ton Sijbrands") into one player and
// computes each player's record from the stored games.
//
// Identity is by surname and initials, folded (case, diacritics and
// spacing do not count), read from "Surname, I.", "Surname,I.", "I.
// Surname", "Firstname Surname" and "Surname I.". Names with the same key
// are one player. A shorter form of the initials ("Heffner, A.") joins a
// longer one ("Heffner, A.J.") only when the database holds no other
// longer form with that surname; otherwise it stays apart and the longer
// forms are shown as candidates. The user decides the rest with aliases
// and splits (table player_links), kept by name so that they survive a
// re-import. Games keep their names as written: identity is computed when
// asked, never stored in the games.
//
// Ratings are the games' (games.white_rating and black_rating, which the
// import reads from the WhiteRating or WhiteElo tags): a player's current
// rating is that of their latest rated game, by game date and then id
// (List, Entry.Rating); Show gives every rated game in time order
// (Detail.Ratings), which RatingYears sums by year and Latest ends.
package players
