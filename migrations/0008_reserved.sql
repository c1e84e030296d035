-- Placeholder holding number 0008 so this branch's migrations are numbered 1..n without a
-- gap. Number 0008 belongs to another change; when that change's 0008 file is merged,
-- delete this file (it creates nothing, so no store depends on it).
SELECT 1;
