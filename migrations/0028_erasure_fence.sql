-- A trace is stored only if no erasure of its principal finished while its recall ran
-- (adapters/postgres/traces.py): every trace write looks up the principal's latest
-- erasures by (tenant, principal digest, time), which no index served but the tenant's.
CREATE INDEX erasures_principal_idx ON erasures (tenant_id, principal_sha256, erased_at);
