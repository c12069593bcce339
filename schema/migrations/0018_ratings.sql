-- 0018 is the ratings migration (another branch); this placeholder keeps the
-- numbers contiguous until it is merged, and is replaced by it then.
SELECT 1;
