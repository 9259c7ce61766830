# One role per function, each with only what its handler needs.
# Only store (the single writer) and compact may change objects, and only under their prefixes; reflect may
# append to its own run log (reflection_runs), which it writes directly rather than through the store queue.

locals {
  grants = {
    gateway = { write_prefixes = [], send_to = ["store", "reflect"], consume = null }
    recall  = { write_prefixes = [], send_to = ["store", "reflect"], consume = null }
    store   = { write_prefixes = [local.tables_prefix], send_to = [], consume = "store" }
    reflect = { write_prefixes = ["${local.tables_prefix}reflection_runs.lance/"], send_to = ["store"], consume = "reflect" }
    compact = { write_prefixes = [local.tables_prefix, local.cold_prefix], send_to = [], consume = null }
  }
}

data "aws_iam_policy_document" "lambda_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "function" {
  for_each = local.functions

  name               = local.function_names[each.key]
  description        = "hindsight ${var.tenant_id} ${each.key} function"
  assume_role_policy = data.aws_iam_policy_document.lambda_assume.json
  tags               = local.tags
}

data "aws_iam_policy_document" "function" {
  for_each = local.grants

  statement {
    sid       = "OwnLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.function[each.key].arn}:*"]
  }

  statement {
    sid       = "TenantSecret"
    actions   = ["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"]
    resources = [aws_secretsmanager_secret.this.arn]
  }

  statement {
    sid       = "ListBucket"
    actions   = ["s3:ListBucket", "s3:GetBucketLocation"]
    resources = [aws_s3_bucket.this.arn]
  }

  # Current objects only: no role may read a noncurrent version (the bytes a purge deleted stay there until
  # the store function erases them, see PurgeOldVersions).
  statement {
    sid       = "ReadObjects"
    actions   = ["s3:GetObject"]
    resources = ["${aws_s3_bucket.this.arn}/*"]
  }

  # A purge (run by the single writer) ends by deleting the noncurrent versions under the table prefix, so the
  # bucket's versioning keeps no copy of purged text (SECURITY.md). Only the store function, only that prefix.
  dynamic "statement" {
    for_each = each.key == "store" ? [1] : []

    content {
      sid       = "PurgeOldVersionsList"
      actions   = ["s3:ListBucketVersions"]
      resources = [aws_s3_bucket.this.arn]

      condition {
        test     = "StringLike"
        variable = "s3:prefix"
        values   = ["${local.tables_prefix}*"]
      }
    }
  }

  dynamic "statement" {
    for_each = each.key == "store" ? [1] : []

    content {
      sid       = "PurgeOldVersions"
      actions   = ["s3:DeleteObjectVersion"]
      resources = ["${aws_s3_bucket.this.arn}/${local.tables_prefix}*"]
    }
  }

  dynamic "statement" {
    for_each = length(each.value.write_prefixes) > 0 ? [1] : []

    content {
      sid       = "WriteObjects"
      actions   = ["s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"]
      resources = [for p in each.value.write_prefixes : "${aws_s3_bucket.this.arn}/${p}*"]
    }
  }

  dynamic "statement" {
    for_each = length(each.value.send_to) > 0 ? [1] : []

    content {
      sid       = "SendToQueues"
      actions   = ["sqs:SendMessage", "sqs:GetQueueAttributes"]
      resources = [for q in each.value.send_to : aws_sqs_queue.this[q].arn]
    }
  }

  dynamic "statement" {
    for_each = each.value.consume == null ? [] : [each.value.consume]

    content {
      sid       = "ConsumeQueue"
      actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes"]
      resources = [aws_sqs_queue.this[statement.value].arn]
    }
  }
}

resource "aws_iam_role_policy" "function" {
  for_each = local.functions

  name   = "${local.function_names[each.key]}-access"
  role   = aws_iam_role.function[each.key].id
  policy = data.aws_iam_policy_document.function[each.key].json
}

# EventBridge Scheduler assumes this role to invoke the reflect and compact functions.
data "aws_iam_policy_document" "scheduler_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["scheduler.amazonaws.com"]
    }

    # Only schedules in this account may use the role (confused-deputy guard).
    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [local.account_id]
    }
  }
}

resource "aws_iam_role" "scheduler" {
  name               = "${local.name}-scheduler"
  description        = "hindsight ${var.tenant_id}: lets EventBridge Scheduler invoke reflect and compact"
  assume_role_policy = data.aws_iam_policy_document.scheduler_assume.json
  tags               = local.tags
}

data "aws_iam_policy_document" "scheduler" {
  statement {
    sid       = "InvokeScheduledFunctions"
    actions   = ["lambda:InvokeFunction"]
    resources = [for k in keys(local.schedules) : aws_lambda_function.this[k].arn]
  }
}

resource "aws_iam_role_policy" "scheduler" {
  name   = "${local.name}-scheduler-invoke"
  role   = aws_iam_role.scheduler.id
  policy = data.aws_iam_policy_document.scheduler.json
}
