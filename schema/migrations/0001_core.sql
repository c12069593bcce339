-- 0001: the core tables. Filled in by the import design (issue 6).
CREATE TABLE players (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE
);
