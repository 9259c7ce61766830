# hindsight against a local AWS emulator: one tenant stack per entry of var.tenants.

provider "aws" {
  region     = var.region
  access_key = "test"
  secret_key = "test"

  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  s3_use_path_style           = true

  # One endpoint per service the tenant module uses.
  endpoints {
    cloudformation = var.endpoint
    cloudwatch     = var.endpoint
    iam            = var.endpoint
    lambda         = var.endpoint
    logs           = var.endpoint
    s3             = var.endpoint
    scheduler      = var.endpoint
    secretsmanager = var.endpoint
    sqs            = var.endpoint
    sts            = var.endpoint
  }

  default_tags {
    tags = { "hindsight:env" = "local" }
  }
}

module "tenant" {
  source   = "../../modules/tenant"
  for_each = var.tenants

  tenant_id                   = each.key
  bucket_name                 = "hindsight-${each.key}" # emulator buckets are not global; matches localstack/
  image_uri                   = var.image_uri
  s3_endpoint                 = coalesce(var.function_s3_endpoint, var.endpoint)
  writer_reserved_concurrency = var.writer_reserved_concurrency

  # Throwaway stacks: allow destroy with data in them, and no secret recovery window.
  force_destroy               = true
  secret_recovery_window_days = 0
  log_retention_days          = 1
}
