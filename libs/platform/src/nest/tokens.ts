/** Injection tokens of the platform module. */
export const APP_NAME = Symbol('APP_NAME');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const KAFKA = Symbol('KAFKA');
export const REDIS = Symbol('REDIS');
/** The lean connection of an app's hot-path Lua scripts (redis/redis-scripts.ts), when it asks for one. */
export const REDIS_SCRIPTS = Symbol('REDIS_SCRIPTS');
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');
export const KAFKA_ADMIN = Symbol('KAFKA_ADMIN');
/** Optional per service: maps its domain errors (refused transitions...) to ApiErrors inside a command. */
export const COMMAND_ERROR_MAPPER = Symbol('COMMAND_ERROR_MAPPER');
