import { ConfigVar, env } from '../config/config';

/**
 * The tracing variables every app reads (part of commonConfig). Standard OpenTelemetry names, so a
 * collector's documentation applies as it is; declared here so boot validates them like any other.
 */
export interface TracingConfig {
  /** Base URL of an OTLP/HTTP collector; undefined: nothing is exported. */
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Share of new traces recorded when exporting (0..1). */
  readonly OTEL_TRACES_SAMPLER_ARG?: number;
}

export function tracingConfig() {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: optional(
      env.url(
        'OTLP/HTTP (protobuf) collector base URL, e.g. http://127.0.0.1:4318 (spans go to <url>/v1/traces); empty: no export, tracing costs next to nothing',
        ['http', 'https'],
      ),
    ),
    OTEL_TRACES_SAMPLER_ARG: ratio(
      'share of new traces (started at the gateway) recorded and exported, 0 to 1; services follow the caller (parent-based)',
      '1',
    ),
  };
}

/** An optional variable: empty or unset is undefined, anything else must parse. */
function optional<T>(variable: ConfigVar<T>): ConfigVar<T | undefined> {
  return { ...variable, default: '', parse: (raw) => (raw === '' ? undefined : variable.parse(raw)) };
}

function ratio(description: string, fallback: string): ConfigVar<number> {
  return {
    description,
    default: fallback,
    parse(raw) {
      const value = Number(raw);
      if (!/^\d*\.?\d+$/.test(raw.trim()) || !(value >= 0 && value <= 1))
        throw new Error(`"${raw}" is not a number from 0 to 1`);
      return value;
    },
  };
}
