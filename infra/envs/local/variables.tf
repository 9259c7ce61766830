variable "endpoint" {
  description = "Base URL of the AWS emulator (LocalStack or moto server)."
  type        = string
  default     = "http://localhost:4566"
}

variable "function_s3_endpoint" {
  description = "S3 endpoint as seen from inside the functions; null uses endpoint."
  type        = string
  default     = null
}

variable "region" {
  description = "Region the emulator pretends to be."
  type        = string
  default     = "us-east-1"
}

variable "tenants" {
  description = "Tenants to deploy; each gets its own stack."
  type        = set(string)
  default     = ["acme"]
}

variable "image_uri" {
  description = "Function image; emulators that cannot run Lambda accept any well-formed ECR URI."
  type        = string
  default     = "000000000000.dkr.ecr.us-east-1.amazonaws.com/hindsight:local"
}

variable "writer_reserved_concurrency" {
  description = "Reserved concurrency of the store function; set null if the emulator rejects reservations."
  type        = number
  default     = 1
}
