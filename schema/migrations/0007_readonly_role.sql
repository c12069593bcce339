-- 0007: placeholder (work in progress: the read-only role for user SQL).
SELECT 1;
