# Five functions from one container image; image_config.command selects the handler.

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

  # The store queue (FIFO, one message group) already keeps one store invocation at a time; the reservation only
  # guards against anything else invoking the writer. -1 = unreserved.
  reserved_concurrent_executions = each.key == "store" ? coalesce(var.writer_reserved_concurrency, -1) : -1

  image_config {
    command = [each.value.command]
  }

  environment {
    variables = merge(local.environment, local.function_settings[each.key])
  }

  tags = local.tags

  # The log group (with its retention) before Lambda makes its own; the role's access before any trigger.
  depends_on = [aws_cloudwatch_log_group.function, aws_iam_role_policy.function]
}

# store: FIFO batches of at most 10 and no batching window (neither is allowed on FIFO); one message group means
# one batch in flight. reflect: a standard queue, a few triggers per batch, at most reflect_max_concurrency
# batches at once (2 is the lowest cap SQS mappings accept).
resource "aws_lambda_event_source_mapping" "this" {
  for_each = local.queue_consumers

  event_source_arn                   = aws_sqs_queue.this[each.key].arn
  function_name                      = aws_lambda_function.this[each.key].arn
  batch_size                         = each.key == "store" ? var.store_batch_size : var.reflect_batch_size
  maximum_batching_window_in_seconds = each.key == "store" ? null : var.maximum_batching_window_s
  # Handlers return batchItemFailures so that one bad message does not replay the whole batch.
  function_response_types = ["ReportBatchItemFailures"]
  tags                    = local.tags

  dynamic "scaling_config" {
    for_each = each.key == "reflect" ? [1] : []

    content {
      maximum_concurrency = var.reflect_max_concurrency
    }
  }
}

# Scheduled invocations are asynchronous: after Lambda's own retries, a failed reflect or compact run goes to the
# schedules DLQ instead of only a log line.
resource "aws_lambda_function_event_invoke_config" "scheduled" {
  for_each = local.schedules

  function_name                = aws_lambda_function.this[each.key].function_name
  maximum_retry_attempts       = 2
  maximum_event_age_in_seconds = 3600

  destination_config {
    on_failure {
      destination = aws_sqs_queue.schedules_dlq.arn
    }
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
