"""An on-call sweep: 25+ tool calls checking, fixing and announcing, most results never looked at."""

from engine.agent import SubAgent

SERVICES = ["api-gateway", "auth", "billing", "checkout", "search", "notifications",
            "ingest", "reports"]

HEALTH = {
    "api-gateway": {"status": "ok", "latency-ms": 41, "error-rate": 0.002},
    "auth": {"status": "ok", "latency-ms": 18, "error-rate": 0.0},
    "billing": {"status": "degraded", "latency-ms": 2340, "error-rate": 0.071},
    "checkout": {"status": "degraded", "latency-ms": 1980, "error-rate": 0.054},
    "search": {"status": "ok", "latency-ms": 95, "error-rate": 0.004},
    "notifications": {"status": "ok", "latency-ms": 33, "error-rate": 0.001},
    "ingest": {"status": "down", "latency-ms": None, "error-rate": 1.0},
    "reports": {"status": "ok", "latency-ms": 410, "error-rate": 0.009},
}

DEPENDENCIES = {
    "billing": ["postgres-main", "redis-sessions", "auth"],
    "checkout": ["billing", "redis-sessions", "search"],
    "ingest": ["kafka", "redis-sessions"],
}

STALE_CACHES = ["sessions:eu", "sessions:us", "prices:eu", "prices:us", "carts"]


def list_services() -> list:
    """Names of every production service."""
    return list(SERVICES)


def check_health(service: str) -> dict:
    """Current health of one service: status (ok, degraded, down), latency-ms, error-rate."""
    if service not in HEALTH:
        raise ValueError(f"unknown service: {service!r}")
    return HEALTH[service]


def get_dependencies(service: str) -> list:
    """The services and stores this service calls."""
    return DEPENDENCIES.get(service, [])


def stale_caches() -> list:
    """Keys of the cache regions whose entries are older than their TTL."""
    return list(STALE_CACHES)


def refresh_cache(key: str) -> dict:
    """Flush and re-warm one cache region."""
    return {"key": key, "status": "refreshed"}


def restart(service: str) -> dict:
    """Rolling restart of one service; returns once the new pods pass their readiness check."""
    if service not in HEALTH:
        raise ValueError(f"unknown service: {service!r}")
    return {"service": service, "status": "restarted"}


def notify(channel: str, message: str) -> dict:
    """Post a message to a chat channel (e.g. "ops", "oncall")."""
    return {"channel": channel, "status": "sent"}


agent = SubAgent(
    mission="On-call sweep: find every unhealthy production service, fix what you can (stale "
            "caches, restarts), tell the ops channel, and page on-call if anything is down. "
            "Return what you did.",
    tools={"list-services": list_services, "check-health": check_health,
           "get-dependencies": get_dependencies, "stale-caches": stale_caches,
           "refresh-cache": refresh_cache, "restart": restart, "notify": notify},
    max_turns=10, compress_history={"tool_call_limit": 8}, name="tool-heavy",
    description="25 tool calls in 7 turns: repeated calls (x3), unused results, tool_call_limit 8")

replies = [
    """thinking: Start with the list of services.
```clojure
(def services (tool/list-services))
(println "services:" services)
```""",
    """thinking: Eight services. Check the health of each and keep the ones that are not ok.
```clojure
(def health (zipmap services (mapv tool/check-health services)))
(def unhealthy (vec (remove #(= "ok" (:status (get health %))) services)))
(doseq [s unhealthy]
  (println s (get health s)))
```""",
    """thinking: billing and checkout are degraded, ingest is down. Look at what they depend on
before restarting anything.
```clojure
(def deps (into {} (map (fn [s] [s (tool/get-dependencies s)]) unhealthy)))
(println "deps:" deps)
(println "shared:" (apply clojure.set/intersection (map set (vals deps))))
```""",
    """thinking: All three use redis-sessions. Stale session caches could explain it; refresh
the stale regions first.
```clojure
(def stale (tool/stale-caches))
(doseq [k stale]
  (tool/refresh-cache k))
(println "refreshed" (count stale) "cache regions:" stale)
```""",
    """thinking: Caches are fresh. Now restart the unhealthy services.
```clojure
(doseq [s unhealthy]
  (tool/restart s))
```""",
    """thinking: Restarts went through. Tell ops, and page on-call because ingest was down.
```clojure
(doseq [s unhealthy]
  (tool/notify "ops" "Restarted unhealthy services after refreshing stale caches"))
(tool/notify "oncall" "ingest was DOWN (error-rate 1.0); restarted, please verify")
```""",
    """thinking: Oops, the doseq sent the same ops message once per service, three times.
Harmless. Everything is done; report it.
```clojure
(return {:unhealthy (zipmap unhealthy (map #(:status (get health %)) unhealthy))
         :shared-dependency "redis-sessions"
         :caches-refreshed stale
         :restarted unhealthy
         :notified ["ops" "oncall"]})
```""",
]
