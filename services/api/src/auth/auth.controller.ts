import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProjectsRepository } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { SESSION_COOKIE } from '../common/auth.guard.js';
import { Auth, Public } from '../common/decorators.js';
import type { AuthContext } from '../common/request-context.js';
import { ApiErrors } from '../common/api-errors.js';
import { toProjectDto } from '../projects/project.dto.js';
import { LoginDto, MeDto } from './auth.dto.js';
import { AuthService, toUserDto } from './auth.service.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly projects: ProjectsRepository,
    private readonly config: ApiConfig,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({ operationId: 'login', summary: 'Log in; sets the httpOnly session cookie' })
  @ApiOkResponse({ type: MeDto })
  @ApiErrors(400, 401, 429)
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<MeDto> {
    const { user, token } = await this.auth.login(body.email, body.password, req.ip ?? 'unknown');
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      // Over HTTPS (directly, or as the console's proxy says) the cookie never travels in clear.
      secure: this.config.secureCookies || req.secure,
      path: '/',
      maxAge: this.config.sessionTtlSeconds * 1000,
    });
    return { user: toUserDto(user), projects: (await this.projects.listForUser(user.id)).map(toProjectDto), auth_method: 'session' };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiCookieAuth()
  @ApiOperation({ operationId: 'logout', summary: 'End the current session' })
  @ApiErrors(401)
  async logout(@Auth() auth: AuthContext, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.logout(auth.sessionTokenHash);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  @Get('me')
  @ApiOperation({ operationId: 'getMe', summary: 'The caller and their projects' })
  @ApiOkResponse({ type: MeDto })
  @ApiErrors(401)
  async me(@Auth() auth: AuthContext): Promise<MeDto> {
    return {
      user: toUserDto(auth.user),
      projects: (await this.projects.listForUser(auth.user.id)).map(toProjectDto),
      auth_method: auth.apiKeyId ? 'api_key' : 'session',
    };
  }
}
