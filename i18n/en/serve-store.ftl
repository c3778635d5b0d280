# serve --store and report --store: the class database (PostgreSQL) shared by several servers.
serve-opt-store = The class database shared with the class's other servers, as postgres://USER:PASSWORD@HOST:PORT/DB (also ROCM_LEARN_STORE)
cli-report-store = Build the report from the class database of rocm-learn serve (postgres://...) instead of files
store-url-bad = The class database address is not valid ({ $why }). Write it as postgres://USER:PASSWORD@HOST:PORT/DB.
store-tls-unsupported = The class database address asks for TLS (sslmode=require), but this rocm-learn connects without TLS. Reach the database over a private network or an SSH tunnel, and remove sslmode=require.
store-unreachable = Could not connect to the class database { $url }: { $error }
store-failed = The class database failed: { $error }
store-too-new = The class database has schema version { $found }, newer than this rocm-learn knows ({ $known }). Use the rocm-learn that set it up, or a newer one.
store-timeout = The class database gave no answer within { $secs } s.
store-empty = The database { $url } holds no class yet: start rocm-learn serve with --store on it first.
serve-opt-health = Answer HTTP on ADDR:PORT for a load balancer's health checks: 200 ready, 503 draining (after SIGTERM)
serve-drain-leave = This class server is shutting down. Log in again with the same command: you continue on another server, with all your work.
