# The tenant bucket: tables/ holds the LanceDB tables (written only by store and compact), cold/ the cold tier.

resource "aws_s3_bucket" "this" {
  bucket        = local.bucket_name
  force_destroy = var.force_destroy
  tags          = local.tags
}

resource "aws_s3_bucket_ownership_controls" "this" {
  bucket = aws_s3_bucket.this.id

  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_public_access_block" "this" {
  bucket                  = aws_s3_bucket.this.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_versioning" "this" {
  bucket = aws_s3_bucket.this.id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "this" {
  bucket = aws_s3_bucket.this.id

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "AES256"
    }
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "this" {
  bucket = aws_s3_bucket.this.id

  # Lifecycle rules act on versions, so versioning must exist first.
  depends_on = [aws_s3_bucket_versioning.this]

  rule {
    id     = "cold-tier"
    status = "Enabled"

    filter {
      prefix = local.cold_prefix
    }

    transition {
      days          = var.cold_transition_days
      storage_class = var.cold_storage_class
    }
  }

  rule {
    id     = "noncurrent-versions"
    status = "Enabled"

    filter {}

    noncurrent_version_expiration {
      noncurrent_days = var.noncurrent_version_expiration_days
    }

    abort_incomplete_multipart_upload {
      days_after_initiation = 7
    }

    expiration {
      expired_object_delete_marker = true
    }
  }
}

# TLS only, whatever the caller's IAM policy says.
data "aws_iam_policy_document" "bucket" {
  statement {
    sid       = "DenyInsecureTransport"
    effect    = "Deny"
    actions   = ["s3:*"]
    resources = [aws_s3_bucket.this.arn, "${aws_s3_bucket.this.arn}/*"]

    principals {
      type        = "*"
      identifiers = ["*"]
    }

    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "this" {
  bucket = aws_s3_bucket.this.id
  policy = data.aws_iam_policy_document.bucket.json

  depends_on = [aws_s3_bucket_public_access_block.this]
}

# Token hashes and LLM keys; the functions read the keys at cold start, the gateway re-reads the token hashes
# every HINDSIGHT_TOKEN_REFRESH_S (revocation within a minute).
resource "aws_secretsmanager_secret" "this" {
  name                    = "hindsight/${var.tenant_id}/config"
  description             = "hindsight ${var.tenant_id}: token hashes and LLM keys"
  recovery_window_in_days = var.secret_recovery_window_days
  tags                    = local.tags
}

resource "aws_secretsmanager_secret_version" "this" {
  count = var.initial_secret_string == null ? 0 : 1

  secret_id     = aws_secretsmanager_secret.this.id
  secret_string = var.initial_secret_string

  # Only the first value comes from terraform; rotations happen outside it.
  lifecycle {
    ignore_changes = [secret_string]
  }
}
