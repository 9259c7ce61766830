variable "region" {
  description = "AWS region to deploy into."
  type        = string
  default     = "eu-west-1"
}

variable "environment" {
  description = "Environment name, used as a tag."
  type        = string
  default     = "prod"
}

variable "tenants" {
  description = "Tenants to deploy; each gets its own stack."
  type        = set(string)
}

variable "image_uri" {
  description = "ECR image URI, pinned by digest (…/hindsight@sha256:…) so that every function runs the same build."
  type        = string
}

variable "llm_model" {
  description = "litellm model for reflection; empty disables LLM calls."
  type        = string
  default     = ""
}

variable "alarm_sns_topic_arn" {
  description = "SNS topic for DLQ alarms; null keeps them silent."
  type        = string
  default     = null
}
