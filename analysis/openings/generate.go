package openings

//go:generate go run ./internal/gennames
