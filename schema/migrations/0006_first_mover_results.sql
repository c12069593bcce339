-- 0006: placeholder (work in progress: English results repair).
SELECT 1;
