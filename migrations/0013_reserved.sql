-- Placeholder holding number 0013 so this branch's migrations are numbered 1..n without a
-- gap. Number 0013 belongs to another change; when that change's 0013 file is merged,
-- delete this file (it creates nothing, so no store depends on it).
SELECT 1;
