// The `user` field of an image request (the gateway's end-user identifier for monitoring and
// abuse detection): the caller's `user` argument, else `modelgate.endUserId`, else nothing.
// A bad value stops the request before anything is sent, with words saying what to fix: a
// request the user wanted labelled must not go out unlabelled, and a value that is the API key
// itself must never be put in a request body.
import { GatewayError } from '../core';
import { checkEndUserId } from '../core/client/endUserId';
import { l10n } from '../core/l10n';
import type { Services } from '../services/serviceContainer';
import { ImageArgumentsError } from './imageErrors';

export async function endUserFor(services: Services, requested: unknown): Promise<string | undefined> {
  let user: string | undefined;
  let from: 'argument' | 'setting';
  const asked = checkEndUserId(requested, 'user');
  if (!asked.ok) throw new ImageArgumentsError([asked.problem]);
  if (asked.value !== undefined) {
    user = asked.value;
    from = 'argument';
  } else {
    const s = services.settings();
    if (s.endUserIdProblem) throw settingError(`${s.endUserIdProblem}.`);
    user = s.endUserId;
    from = 'setting';
  }
  if (user !== undefined && user === (await services.keys.get())) {
    if (from === 'argument')
      throw new ImageArgumentsError([l10n.t('user is your API key; it would be sent in the request body. Use an identifier of the end user instead')]);
    throw settingError(l10n.t('"modelgate.endUserId" is your API key; it would be sent in the request body. Use an identifier of the end user instead.'));
  }
  return user;
}

function settingError(problem: string): GatewayError {
  return new GatewayError('bad_request', l10n.t('{0} Nothing was sent: fix or clear “modelgate.endUserId” in your user settings.', problem), {
    retryable: false,
    code: 'invalid_setting',
  });
}
