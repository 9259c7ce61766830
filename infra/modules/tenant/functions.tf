# Five functions from one container image; image_config.command selects the handler.

locals {
  # store is the single writer of the memory tables; reflect appends reflection_runs rows itself.
  reserved_concurrency = {
    store   = var.writer_reserved_concurrency
    reflect = var.reflect_reserved_concurrency
  }

  # 2 is the lowest cap SQS mappings accept; above that, reflect's pollers match its reservation.
  max_pollers = {
    store   = 2
    reflect = max(2, coalesce(var.reflect_reserved_concurrency, 2))
  }
}

resource "aws_cloudwatch_log_group" "function" {
  for_each = local.functions

  name              = "/aws/lambda/${local.function_names[each.key]}"
  retention_in_days = var.log_retention_days
  tags              = local.tags
}

resource "aws_lambda_function" "this" {
  for_each = local.functions

  function_name = local.function_names[each.key]
  description   = each.value.description
  role          = aws_iam_role.function[each.key].arn
  package_type  = "Image"
  image_uri     = var.image_uri
  architectures = [var.architecture]
  memory_size   = var.memory_mb[each.key]
  timeout       = var.timeout_s[each.key]

  # Functions that commit to tables themselves run reserved: LanceDB commits on S3 collide under concurrent
  # writers. -1 = unreserved.
  reserved_concurrent_executions = coalesce(lookup(local.reserved_concurrency, each.key, null), -1)

  image_config {
    command = [each.value.command]
  }

  environment {
    variables = local.environment
  }

  tags = local.tags

  # The log group (with its retention) before Lambda makes its own; the role's access before any trigger.
  depends_on = [aws_cloudwatch_log_group.function, aws_iam_role_policy.function]
}

resource "aws_lambda_event_source_mapping" "this" {
  for_each = local.queue_consumers

  event_source_arn                   = aws_sqs_queue.this[each.key].arn
  function_name                      = aws_lambda_function.this[each.key].arn
  batch_size                         = var.batch_size
  maximum_batching_window_in_seconds = var.maximum_batching_window_s
  # Handlers return batchItemFailures so that one bad message does not replay the whole batch.
  function_response_types = ["ReportBatchItemFailures"]
  tags                    = local.tags

  # Caps the pollers so they do not flood a reserved function (throttled batches count towards
  # maxReceiveCount) and bound the writers when it is unreserved.
  scaling_config {
    maximum_concurrency = local.max_pollers[each.key]
  }
}

# The gateway is public over HTTPS; the app checks bearer tokens itself.
resource "aws_lambda_function_url" "this" {
  function_name      = aws_lambda_function.this["gateway"].function_name
  authorization_type = "NONE"
}

resource "aws_lambda_permission" "function_url" {
  statement_id           = "AllowPublicFunctionUrl"
  function_name          = aws_lambda_function.this["gateway"].function_name
  action                 = "lambda:InvokeFunctionUrl"
  principal              = "*"
  function_url_auth_type = "NONE"
}

# Since October 2025 a public function URL also needs lambda:InvokeFunction, limited to calls that come through
# the URL (InvokedViaFunctionUrl). aws_lambda_permission can say so only from AWS provider 6.29
# (invoked_via_function_url); with the 5.x provider pinned here, a one-resource CloudFormation stack adds it.
resource "aws_cloudformation_stack" "function_url_invoke" {
  name = "${local.name}-function-url-invoke"
  tags = local.tags

  template_body = jsonencode({
    Description = "hindsight ${var.tenant_id}: invoke permission for the gateway's public function URL"
    Resources = {
      InvokeViaFunctionUrl = {
        Type = "AWS::Lambda::Permission"
        Properties = {
          Action                = "lambda:InvokeFunction"
          FunctionName          = aws_lambda_function.this["gateway"].function_name
          Principal             = "*"
          InvokedViaFunctionUrl = true
        }
      }
    }
  })
}
