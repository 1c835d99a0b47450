-- Run once by the postgres image when docker-compose's postgres volume is first initialised
-- (/docker-entrypoint-initdb.d). One database per app (architecture rule 1), named as in
-- libs/platform/src/config/app-catalog.ts. Each app migrates its own schema when it starts.
-- To re-run after changing this file: `docker compose down -v` (drops the volume and its data).
CREATE DATABASE paygrid_gateway;
CREATE DATABASE paygrid_accounts;
CREATE DATABASE paygrid_acquiring;
CREATE DATABASE paygrid_payouts;
CREATE DATABASE paygrid_issuing;
CREATE DATABASE paygrid_webhooks;
